import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Cassette, type Emulator, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// While recording, the console's log shows the exchange as the cassette records it: captured and
// redacted once, by the recorder, not read a second time by the log.

const key = 'dwk_recorded-console-key-0077';
let dir: string;
let deployment: Server;
let recorder: Emulator;
let cassette: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dwz-console-recorded-'));
  deployment = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const sent = Buffer.concat(chunks).toString();
      const body = Buffer.from(
        JSON.stringify({ echo: sent, seen: req.headers.authorization, passwords: ['p4ssw0rd-1'], n: 1 }),
        'utf16le',
      );
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-16le' }).end(body);
    });
  });
  deployment.listen(0, '127.0.0.1');
  await new Promise((resolve) => deployment.once('listening', resolve));
  cassette = join(dir, 'console.har');
  recorder = await startEmulator({
    record: `http://127.0.0.1:${(deployment.address() as AddressInfo).port}`,
    cassette,
    console: true,
  });
});

afterAll(async () => {
  await recorder.close();
  await new Promise((resolve) => deployment.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('the console while recording', () => {
  it("shows the cassette's own record of each exchange, bodies included", async () => {
    const host = new URL(recorder.url).host;
    const page = { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' };
    const res = await fetch(`${recorder.url}/api/qna/v1/systems/s1/search`, {
      method: 'POST',
      headers: { authorization: `SSWS ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'order', client_secret: 'c1ient-s3cret' }),
    });
    await res.arrayBuffer();
    let entry: { state: string; requestBody: string; responseBody: string } | undefined;
    // The log's entry is done once the recorder has captured the exchange.
    while (entry?.state !== 'done') {
      const { entries } = (await (
        await fetch(`${recorder.url}/console/api/log`, { headers: page })
      ).json()) as {
        entries: { id: number }[];
      };
      const id = entries[0]?.id;
      entry =
        id === undefined
          ? undefined
          : await (await fetch(`${recorder.url}/console/api/log/${id}`, { headers: page })).json();
      if (entry?.state !== 'done') await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const recorded = (JSON.parse(await readFile(cassette, 'utf8')) as Cassette).log.entries[0];
    expect(entry.requestBody).toBe(recorded?.request.postData?.text);
    expect(entry.responseBody).toBe(recorded?.response.content.text);
    expect(JSON.parse(entry.requestBody)).toEqual({ query: 'order', client_secret: '[redacted]' });
    const answer = JSON.parse(entry.responseBody) as Record<string, unknown>;
    expect(answer).toMatchObject({ seen: 'SSWS [redacted]', passwords: '[redacted]', n: 1 });
    expect(JSON.stringify(entry)).not.toContain(key);
  });
});
