// A peer on another machine, as the kernel reports it: the test's requests leave from this machine's
// own non-loopback address (bound with `localAddress`) to the emulator listening on every interface,
// so the emulator's socket has a real non-loopback `remoteAddress`, not a spoofed one. Whatever the
// requests say about themselves (`Host: 127.0.0.1`, the console's `Origin`), only a valid key opens
// the console's endpoints and the control routes to such a peer.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { rawRequest } from '@dataworkz/measure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The emulator's own key (the first), which its console's proxy adds for a browser on this machine. */
const apiKey = 'remote-peer-test-key-0123456789';
/** A second key the emulator accepts, the one the peer elsewhere holds. */
const peerKey = 'remote-peer-own-key-5555555555';
const wrongKey = 'remote-peer-wrong-key-9876543210';

/** This machine's first IPv4 address that is not a loopback one: the address requests leave from. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;

/**
 * One request to 127.0.0.1 from `from`, with headers as written (Host included); read whole, or cut
 * after 3 s: an answer that streams (the live events) is what a refusal must not be, so what came is kept.
 */
const raw = (
  port: number,
  from: string | undefined,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) =>
  rawRequest(`http://127.0.0.1:${port}`, path, {
    method,
    headers: { host: `127.0.0.1:${port}`, ...headers },
    cutAfterMs: 3000,
    ...(from ? { localAddress: from } : {}),
    ...(body === undefined ? {} : { body }),
  });

/** The headers the console's own page sends from a browser, as a program can write them too. */
const pageLike = (port: number) => ({
  origin: `http://127.0.0.1:${port}`,
  'sec-fetch-site': 'same-origin',
  'content-type': 'application/json',
});

/** Every endpoint of the console and every control route, with a body where one is read. */
const routes: [string, string, string?][] = [
  ['GET', '/console/api/overview'],
  ['GET', '/console/api/key'],
  ['GET', '/console/api/log'],
  ['DELETE', '/console/api/log'],
  ['GET', '/console/api/log/1'],
  ['GET', '/console/api/events'],
  ['GET', '/console/api/faults'],
  ['POST', '/console/api/faults', '{"status":503}'],
  ['DELETE', '/console/api/faults'],
  ['PUT', '/console/api/rate-limit', '{"perSecond":1}'],
  ['DELETE', '/console/api/rate-limit'],
  ['POST', '/console/api/state/export'],
  ['GET', `/console/api/agents/${seed.agents.orderStatus.agentId}`],
  ['GET', '/console/api/proxy/api/qna/v1/systems'],
  ['POST', '/console/api/proxy/api/agents/v1/a2a/x/stream', '{}'],
  ['GET', '/_emulator/requests'],
  ['DELETE', '/_emulator/requests'],
  ['POST', '/_emulator/faults', '{"status":503}'],
  ['DELETE', '/_emulator/faults'],
  ['GET', '/_emulator/state'],
  ['POST', '/_emulator/state/export'],
];

describe.skipIf(outside === undefined)('the console and the control routes, to a peer elsewhere', () => {
  let emu: Emulator;
  let port: number;
  let exportDir: string;

  beforeAll(async () => {
    exportDir = await mkdtemp(join(tmpdir(), 'dwz-remote-peer-'));
    emu = await startEmulator({
      console: true,
      host: '0.0.0.0',
      apiKeys: [apiKey, peerKey],
      exportOnExit: join(exportDir, 'state'),
    });
    port = Number(new URL(emu.url).port);
  });

  afterAll(async () => {
    await emu?.close();
    await rm(exportDir, { recursive: true, force: true });
  });

  it('tells the peer elsewhere from the browser on this machine, whatever Host says', async () => {
    const res = await raw(port, outside, 'GET', '/console/api/overview', {});
    expect(res.status).toBe(401);
    // The same request from loopback is the developer's own browser: nothing changes there.
    expect((await raw(port, undefined, 'GET', '/console/api/overview', {})).status).toBe(200);
  });

  it('answers every console endpoint and control route with 401 without a key, Host: 127.0.0.1 or not', async () => {
    for (const [method, path, body] of routes) {
      const res = await raw(port, outside, method, path, pageLike(port), body);
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 401`);
      expect(res.headers['www-authenticate']).toBe('SSWS, Bearer');
      expect(res.text).not.toContain(apiKey);
    }
  });

  it('answers them with 401 for a wrong key, as the API does', async () => {
    for (const [method, path, body] of routes) {
      const res = await raw(
        port,
        outside,
        method,
        path,
        { ...pageLike(port), authorization: `SSWS ${wrongKey}` },
        body,
      );
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 401`);
      expect(res.text).not.toContain(apiKey);
    }
  });

  it('leaves no trace of the attacks in the issue: no fault, no export, no log, no key', async () => {
    const host = { host: `127.0.0.1:${port}` };
    const proxy = await raw(port, outside, 'GET', '/console/api/proxy/api/qna/v1/systems', host);
    expect(proxy.status).toBe(401);
    expect(proxy.text).not.toContain(seed.systems.supportKb.systemId);
    expect(
      (await raw(port, outside, 'POST', '/console/api/faults', pageLike(port), '{"status":503}')).status,
    ).toBe(401);
    expect((await emu.exportState()).faults).toEqual([]);
    expect((await raw(port, outside, 'POST', '/console/api/state/export', pageLike(port))).status).toBe(401);
    await expect(readdir(exportDir)).resolves.toEqual([]);
    const log = await raw(port, outside, 'GET', '/console/api/log', host);
    expect(log.status).toBe(401);
    expect(log.text).not.toContain('/api/agents/v1/');
    const events = await raw(port, outside, 'GET', '/console/api/events', host);
    expect(events.status).toBe(401);
    expect(events.text).not.toContain('event:');
    // The developer's next call is not faulted.
    expect(
      (await raw(port, undefined, 'GET', '/api/agents/v1/', { authorization: `SSWS ${apiKey}` })).status,
    ).toBe(200);
  });

  it('serves a peer with a key, through the proxy with its own key, but never shows it the emulator’s', async () => {
    const withKey = { ...pageLike(port), authorization: `SSWS ${peerKey}` };
    const systems = await raw(port, outside, 'GET', '/console/api/proxy/api/qna/v1/systems', withKey);
    expect(systems.status).toBe(200);
    expect(JSON.parse(systems.text)).toHaveProperty(seed.systems.supportKb.systemId);
    const log = await raw(port, outside, 'GET', '/console/api/log', withKey);
    expect(log.status).toBe(200);
    expect(log.text).not.toContain(apiKey);
    expect(log.text).not.toContain(peerKey);
    // The key is shown to a browser on this machine only, credential or not.
    const key = await raw(port, outside, 'GET', '/console/api/key', withKey);
    expect(key.status).toBe(403);
    expect(key.text).not.toContain(apiKey);
    // The page itself (nothing secret in it) loads, so that it can ask for the key.
    expect((await raw(port, outside, 'GET', '/console', {})).status).toBe(200);
    // A credential does not lift the browser checks: a page on another site is still refused.
    const crossSite = await raw(port, outside, 'GET', '/console/api/log', {
      ...withKey,
      origin: 'http://attacker.example',
    });
    expect(crossSite.status).toBe(403);
  });

  it('passes the peer’s own credential through the proxy, never the emulator’s key', async () => {
    emu.clearRequests();
    const proxied = await raw(port, outside, 'GET', '/console/api/proxy/api/qna/v1/systems', {
      authorization: `SSWS ${peerKey}`,
    });
    expect(proxied.status).toBe(200);
    expect(emu.requests.map((r) => r.headers.authorization)).toEqual([`SSWS ${peerKey}`]);
    // The same call from this machine's browser goes with the emulator's key, as before.
    emu.clearRequests();
    await raw(port, undefined, 'GET', '/console/api/proxy/api/qna/v1/systems', {});
    expect(emu.requests.map((r) => r.headers.authorization)).toEqual([`SSWS ${apiKey}`]);
  });
});

describe.skipIf(outside === undefined)('a recorder’s console, to a peer elsewhere', () => {
  it('keeps the live events (the drift found, the cassette) from a peer without the key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dwz-remote-rec-'));
    const deployment = await startEmulator({
      apiKeys: [apiKey],
      faults: [{ route: 'listQnaSystems', status: 200, body: '{"leaked":"deployment-secret-77"}' }],
    });
    const recorder = await startEmulator({
      console: true,
      host: '0.0.0.0',
      record: deployment.url,
      cassette: join(dir, 'c.har'),
    });
    try {
      const port = Number(new URL(recorder.url).port);
      const recorded = await fetch(`${recorder.url}/api/qna/v1/systems`, {
        headers: { authorization: `SSWS ${apiKey}` },
      });
      expect(recorded.status).toBe(200);
      await recorded.text();
      const events = await raw(port, outside, 'GET', '/console/api/events', pageLike(port));
      expect(events.status).toBe(401);
      expect(events.text).not.toContain('event: state');
      expect(events.text).not.toContain('deployment-secret-77');
      // The developer's own browser still follows it.
      const own = await raw(port, undefined, 'GET', '/console/api/events', {});
      expect(own.status).toBe(200);
      expect(own.text).toContain('"mode":"recording"');
    } finally {
      await recorder.close();
      await deployment.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('createEmulator().fetch, with no socket', () => {
  it('is code in this process (this machine), and its control routes still ask for the key', async () => {
    const emu = createEmulator({ apiKeys: [apiKey] });
    try {
      expect((await emu.fetch('http://emulator.test/_emulator/requests')).status).toBe(401);
      const ok = await emu.fetch('http://emulator.test/_emulator/requests', {
        headers: { authorization: `SSWS ${apiKey}` },
      });
      expect(ok.status).toBe(200);
    } finally {
      await emu.close();
    }
  });
});
