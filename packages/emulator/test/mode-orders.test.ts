// Every mode applies the faults in force and the rate limit before its source answers. Replay runs
// emulating's order with the cassette in the operation's place, so faults (added by the option, the
// test's `faults.add` or the control route) and the rate limit apply to replayed routes; recording
// applies both before the deployment is asked. Replayed headers are served as recorded, whatever their names.
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Cassette, createEmulator, type Emulator, startEmulator } from '@dataworkz/emulator';
import { createParser } from 'eventsource-parser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cassetteOf, recordedEntry } from './support/cassette.js';

const key = 'replay-faults-key-0123';
const auth = { authorization: `SSWS ${key}` };
const listUrl = 'https://dw.example/api/agents/v1/';
const agentId = 'a-recorded';
const streamPath = `/api/agents/v1/a2a/${agentId}/stream`;
const streamBody = '{"jsonrpc":"2.0","method":"message/stream","params":{}}';
const recordedAgents = [{ agentId, name: 'From the cassette' }];

function cassette(): Cassette {
  return cassetteOf(
    recordedEntry({
      method: 'GET',
      url: listUrl,
      response: {
        headers: [
          { name: 'content-type', value: 'application/json' },
          { name: 'constructor', value: 'y' },
          { name: '__proto__', value: 'z' },
          { name: 'toString', value: 't' },
        ],
        text: JSON.stringify(recordedAgents),
      },
    }),
    recordedEntry({
      method: 'POST',
      url: `https://dw.example${streamPath}`,
      body: streamBody,
      response: {
        headers: [{ name: 'content-type', value: 'text/event-stream' }],
        events: ['{"n":1}', '{"n":2}', '{"n":3}'].map((data) => ({ time: 0, data })),
      },
    }),
  );
}

async function eventsOf(response: Response): Promise<{ data: string[]; failed: boolean }> {
  const data: string[] = [];
  const parser = createParser({ onEvent: (event) => data.push(event.data) });
  const decoder = new TextDecoder();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      parser.feed(decoder.decode(next.value, { stream: true }));
    }
  } catch {
    return { data, failed: true };
  }
  return { data, failed: false };
}

let started: Emulator | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
});

describe('faults on replayed routes', () => {
  it('answers a fault added with faults.add, then replays again once it is used', async () => {
    const emu = createEmulator({ apiKeys: [key], replay: cassette() });
    emu.faults.add({ route: 'listAgents', status: 503 });
    const faulted = await emu.fetch(listUrl, { headers: auth });
    expect(faulted.status).toBe(503);
    expect(await faulted.json()).toMatchObject({ code: 'INJECTED_FAULT' });
    const replayed = await emu.fetch(listUrl, { headers: auth });
    expect(replayed.status).toBe(200);
    expect(await replayed.json()).toEqual(recordedAgents);
  });

  it("answers a fault given as an option (the command line's --fault), and one added on the control route", async () => {
    started = await startEmulator({
      apiKeys: [key],
      replay: cassette(),
      faults: [{ route: 'listAgents', status: 500, times: 1 }],
    });
    expect((await fetch(`${started.url}/api/agents/v1/`, { headers: auth })).status).toBe(500);
    const added = await fetch(`${started.url}/_emulator/faults`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'listAgents', status: 429, headers: { 'retry-after': '7' } }),
    });
    expect(added.status).toBe(200);
    const limited = await fetch(`${started.url}/api/agents/v1/`, { headers: auth });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await fetch(`${started.url}/api/agents/v1/`, { headers: auth })).status).toBe(200);
  });

  it('applies a fault that shapes the answer: extra headers, a cut body, a truncated JSON body', async () => {
    const emu = createEmulator({ apiKeys: [key], replay: cassette() });
    emu.faults.add({ route: 'listAgents', headers: { 'x-should-retry': 'true' }, contentType: 'text/plain' });
    const shaped = await emu.fetch(listUrl, { headers: auth });
    expect(shaped.headers.get('x-should-retry')).toBe('true');
    expect(shaped.headers.get('content-type')).toBe('text/plain');
    expect(await shaped.json()).toEqual(recordedAgents);
    emu.faults.add({ route: 'listAgents', malformed: true });
    const malformed = await emu.fetch(listUrl, { headers: auth });
    expect(malformed.status).toBe(200);
    const text = await malformed.text();
    expect(JSON.stringify(recordedAgents).startsWith(text)).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
    emu.faults.add({ route: 'listAgents', drop: 'before-headers' });
    await expect(emu.fetch(listUrl, { headers: auth })).rejects.toThrow(TypeError);
  });

  it('cuts a replayed stream after the events a fault allows, and gives its slot back', async () => {
    started = await startEmulator({ apiKeys: [key], replay: cassette(), replaySpeed: 0 });
    const emu = started;
    const post = () =>
      fetch(`${emu.url}${streamPath}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: streamBody,
      });
    emu.faults.add({ route: 'streamAgent', dropAfterEvents: 1 });
    const cut = await eventsOf(await post());
    expect(cut).toEqual({ data: ['{"n":1}'], failed: true });
    await vi.waitFor(() => expect(emu.openStreams).toBe(0), { timeout: 10_000, interval: 20 });
    expect(await eventsOf(await post())).toEqual({ data: ['{"n":1}', '{"n":2}', '{"n":3}'], failed: false });
  });

  it('refuses a wrong key after a fault applies, as emulating does', async () => {
    const emu = createEmulator({ apiKeys: [key], replay: cassette() });
    emu.faults.add({ route: 'listAgents', status: 503 });
    const wrong = { authorization: 'SSWS not-the-key' };
    expect((await emu.fetch(listUrl, { headers: wrong })).status).toBe(503);
    expect((await emu.fetch(listUrl, { headers: wrong })).status).toBe(401);
  });
});

describe('the rate limit on replayed routes', () => {
  it('answers 429 past the burst, as emulating does', async () => {
    const emu = createEmulator({
      apiKeys: [key],
      replay: cassette(),
      limits: { rateLimit: 1, rateLimitBurst: 3 },
    });
    const count = 50;
    const began = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: count }, () => emu.fetch(listUrl, { headers: auth }).then((r) => r.status)),
    );
    const elapsedMs = performance.now() - began;
    const admitted = statuses.filter((s) => s === 200).length;
    // At most the burst, and one more for each second the burst took to arrive.
    expect(admitted).toBeLessThanOrEqual(3 + Math.ceil(elapsedMs / 1000));
    expect(admitted).toBeGreaterThanOrEqual(3);
    expect(statuses.filter((s) => s === 429).length).toBe(count - admitted);
    const limited = await emu.fetch(listUrl, { headers: auth });
    if (limited.status === 429) {
      expect(await limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(limited.headers.get('retry-after-ms')).toMatch(/^\d+$/);
    }
  });
});

describe('replayed header names', () => {
  const expectRecorded = (headers: Headers) => {
    expect(headers.get('constructor')).toBe('y');
    expect(headers.get('__proto__')).toBe('z');
    expect(headers.get('tostring')).toBe('t');
  };

  it('serves headers named constructor, __proto__ and toString as recorded, in process', async () => {
    const emu = createEmulator({ apiKeys: [key], replay: cassette() });
    expectRecorded((await emu.fetch(listUrl, { headers: auth })).headers);
    // Through a fault's reply too.
    emu.faults.add({ route: 'listAgents', headers: { 'x-extra': '1' } });
    expectRecorded((await emu.fetch(listUrl, { headers: auth })).headers);
  });

  it("works around Node's Response, which drops __proto__ from a record of headers (not from pairs)", () => {
    const record: Record<string, string> = Object.create(null);
    Object.defineProperty(record, '__proto__', { value: 'z', enumerable: true });
    expect(new Response('', { headers: record }).headers.get('__proto__')).toBeNull();
    expect(new Response('', { headers: Object.entries(record) }).headers.get('__proto__')).toBe('z');
  });

  it('serves them as recorded over HTTP', async () => {
    started = await startEmulator({ apiKeys: [key], replay: cassette() });
    const res = await fetch(`${started.url}/api/agents/v1/`, { headers: auth });
    expect(res.status).toBe(200);
    expectRecorded(res.headers);
  });
});

describe('recording', () => {
  it('applies the rate limit before the deployment is asked: a refused request never reaches it', async () => {
    let reached = 0;
    const deployment = createServer((req, res) => {
      reached += 1;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    deployment.listen(0, '127.0.0.1');
    await once(deployment, 'listening');
    const dir = await mkdtemp(join(tmpdir(), 'dw-record-rate-'));
    try {
      const { port } = deployment.address() as AddressInfo;
      started = await startEmulator({
        record: `http://127.0.0.1:${port}`,
        cassette: join(dir, 'cassette.har'),
        limits: { rateLimit: 1, rateLimitBurst: 2 },
      });
      const emu = started;
      const count = 30;
      const began = performance.now();
      const statuses = await Promise.all(
        Array.from({ length: count }, () =>
          fetch(`${emu.url}/api/agents/v1/`, { headers: { authorization: 'SSWS deployment-key' } }).then(
            async (r) => {
              await r.arrayBuffer();
              return r.status;
            },
          ),
        ),
      );
      const elapsedMs = performance.now() - began;
      const admitted = statuses.filter((s) => s === 200).length;
      expect(admitted).toBeLessThanOrEqual(2 + Math.ceil(elapsedMs / 1000));
      expect(statuses.filter((s) => s === 429).length).toBe(count - admitted);
      expect(reached).toBe(admitted);
    } finally {
      await started?.close();
      started = undefined;
      deployment.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
