import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Emulator, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, obj } from './support/http.js';

// Recording goes through the same pipeline as the other modes: faults apply first, the console's
// request log shows the deployment's answers, and the console never hands the emulator's key on.
const emulatorKey = 'emulator-own-key-0123456789';
const deploymentKey = 'deployment-key-abcdef012345';
let deployment: Server;
let emu: Emulator;
let dir: string;
const seen: { url: string; authorization: string | undefined }[] = [];

beforeAll(async () => {
  deployment = createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    const ok = req.headers.authorization === `SSWS ${deploymentKey}`;
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
    res.end(JSON.stringify(ok ? [{ agentId: 'a-1', name: 'From the deployment' }] : { message: 'no' }));
  });
  deployment.listen(0, '127.0.0.1');
  await once(deployment, 'listening');
  dir = await mkdtemp(join(tmpdir(), 'dw-record-pipeline-'));
  const { port } = deployment.address() as AddressInfo;
  emu = await startEmulator({
    apiKeys: [emulatorKey],
    console: true,
    record: `http://127.0.0.1:${port}`,
    cassette: join(dir, 'cassette.har'),
  });
});

afterAll(async () => {
  await emu?.close();
  deployment?.close();
  await rm(dir, { recursive: true, force: true });
});

const asDeployment = { headers: { authorization: `SSWS ${deploymentKey}` } };

describe('recording, through the one pipeline', () => {
  it('passes the deployment answer on, repeated headers as they came', async () => {
    const res = await fetch(`${emu.url}/api/agents/v1/`, asDeployment);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.json()).toEqual([{ agentId: 'a-1', name: 'From the deployment' }]);
  });

  it('applies a fault before the deployment is asked (nothing of it reaches the deployment)', async () => {
    const before = seen.length;
    const added = await call(emu, '/_emulator/faults', {
      method: 'POST',
      body: JSON.stringify({ route: 'listAgents', status: 503 }),
    });
    expect(obj(added.json)).toMatchObject({ added: 1 });
    expect((await fetch(`${emu.url}/api/agents/v1/`, asDeployment)).status).toBe(503);
    expect(seen.length).toBe(before);
    expect((await fetch(`${emu.url}/api/agents/v1/`, asDeployment)).status).toBe(200);
    expect(seen.length).toBe(before + 1);
  });

  it("shows the deployment's answers in the console's request log", async () => {
    await fetch(`${emu.url}/api/agents/v1/?shown=1`, asDeployment);
    const log = obj((await call(emu, '/_emulator/log')).json).entries as { query: string; status: number }[];
    expect(log.find((e) => e.query === 'shown=1')).toMatchObject({ status: 200 });
  });

  it("never sends the emulator's own key to the deployment through the console", async () => {
    const host = new URL(emu.url).host;
    const res = await fetch(`${emu.url}/console/api/proxy/api/agents/v1/?through=console`, {
      headers: { origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
    });
    // The deployment answers as it answers a caller without its credential.
    expect(res.status).toBe(401);
    const forwarded = seen.find((s) => s.url.includes('through=console'));
    expect(forwarded).toBeDefined();
    expect(forwarded?.authorization).toBeUndefined();
    expect(JSON.stringify(seen)).not.toContain(emulatorKey);
  });
});
