import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { rawRequest, streamRequest } from '@dataworkz/measure';
import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromThisMachine } from '../src/node/peer.js';

const apiKey = 'console-test-key-0123456789';
let emu: Emulator;
let host: string;

beforeAll(async () => {
  emu = await startEmulator({ console: true, apiKeys: [apiKey], agentStepDelayMs: 0 });
  host = new URL(emu.url).host;
});

afterAll(async () => {
  await emu?.close();
});

/** A raw request, so the test sets the Host header as a rebinding page's browser would. */
const raw = (method: string, path: string, headers: Record<string, string>, body?: string) =>
  rawRequest(emu.url, path, { method, headers, ...(body === undefined ? {} : { body }) });

const page = () => ({ host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' });

describe('the console', () => {
  it('is served at /console, with a policy that keeps the page to its own origin', async () => {
    expect(emu.consoleUrl).toBe(`${emu.url}/console`);
    const res = await raw('GET', '/console', { host });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.text).toContain('/console/assets/app.js');
    expect((await raw('GET', '/console/assets/app.js', { host })).status).toBe(200);
    // The page's own views are the page too (it routes them).
    expect((await raw('GET', '/console/log/3', { host })).text).toBe(res.text);
  });

  it('is opened at a loopback address when the emulator listens on every interface', async () => {
    const everywhere = await startEmulator({ console: true, host: '0.0.0.0', apiKeys: [apiKey] });
    try {
      const port = new URL(everywhere.url).port;
      expect(everywhere.consoleUrl).toBe(`http://127.0.0.1:${port}/console`);
      expect((await fetch(everywhere.consoleUrl ?? '')).status).toBe(200);
    } finally {
      await everywhere.close();
    }
  });

  it('is off unless asked for', async () => {
    const plain = await startEmulator({ apiKeys: [apiKey] });
    try {
      expect(plain.consoleUrl).toBeUndefined();
      // Any other path of the service: credentials first.
      const res = await fetch(`${plain.url}/console/api/proxy/api/qna/v1/systems`);
      expect(res.status).toBe(401);
    } finally {
      await plain.close();
    }
  });

  it('refuses another Host (DNS rebinding), another Origin and cross-site requests', async () => {
    const path = '/console/api/proxy/api/qna/v1/systems';
    const port = new URL(emu.url).port;
    expect((await raw('GET', path, { host: `attacker.example:${port}` })).status).toBe(403);
    expect((await raw('GET', path, { host: 'attacker.example' })).status).toBe(403);
    expect((await raw('GET', path, { host, origin: 'http://attacker.example' })).status).toBe(403);
    expect((await raw('GET', path, { host, origin: 'null' })).status).toBe(403);
    expect((await raw('GET', path, { host, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await raw('GET', '/console', { host: 'attacker.example' })).status).toBe(403);
    // A change of state needs the page's Origin.
    const noOrigin = await raw(
      'POST',
      '/console/api/faults',
      { host, 'content-type': 'application/json' },
      '{"status":503}',
    );
    expect(noOrigin.status).toBe(403);
    expect(emu.faults).toBeDefined();
    // The loopback names of the same port are the same emulator.
    expect((await raw('GET', path, { host: `localhost:${port}` })).status).toBe(200);
    expect((await raw('GET', path, page())).status).toBe(200);
  });

  it('calls the API for the page with the key, which the API still requires of everyone else', async () => {
    const res = await raw(
      'GET',
      `/console/api/proxy/api/qna/v1/systems/${seed.systems.supportKb.systemId}`,
      page(),
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).name).toBe('Customer Support Knowledge Base');
    expect(res.text).not.toContain(apiKey);
    expect((await fetch(`${emu.url}/api/qna/v1/systems`)).status).toBe(401);
    // Only API paths: not the test controls, which could clear the log or read raw requests.
    expect((await raw('GET', '/console/api/proxy/_emulator/requests', page())).status).toBe(404);
  });

  it('logs every request with its answer, the key redacted everywhere', async () => {
    await raw('DELETE', '/console/api/log', page());
    const query = `query=${encodeURIComponent(`refund ${apiKey}`)}`;
    const own = await fetch(
      `${emu.url}/api/qna/v1/systems/${seed.systems.supportKb.systemId}/search?${query}`,
      {
        headers: { authorization: `SSWS ${apiKey}`, 'x-api-key': apiKey },
      },
    );
    expect(own.status).toBe(200);
    const wrong = await fetch(`${emu.url}/api/agents/v1/`, {
      headers: { authorization: 'SSWS wrong-key-42' },
    });
    expect(wrong.status).toBe(401);

    const list = await raw('GET', '/console/api/log', page());
    expect(list.text).not.toContain(apiKey);
    const rows = JSON.parse(list.text).entries as {
      id: number;
      path: string;
      status: number;
      from: string;
      requestId: string;
    }[];
    expect(rows.map((r) => [r.path, r.status, r.from])).toEqual([
      ['/api/agents/v1/', 401, 'program'],
      [`/api/qna/v1/systems/${seed.systems.supportKb.systemId}/search`, 200, 'program'],
    ]);
    expect(rows[1]?.requestId).toBe(own.headers.get('x-request-id'));

    const detail = await raw('GET', `/console/api/log/${rows[1]?.id}`, page());
    expect(detail.text).not.toContain(apiKey);
    const entry = JSON.parse(detail.text);
    expect(entry.requestHeaders.authorization).toBe('SSWS [redacted]');
    expect(entry.requestHeaders['x-api-key']).toBe('[redacted]');
    expect(entry.query).toBe('query=refund%20[redacted]');
    expect(JSON.parse(entry.responseBody).question).toBe('refund [redacted]');
    // A wrong key is a credential too.
    const refused = JSON.parse((await raw('GET', `/console/api/log/${rows[0]?.id}`, page())).text);
    expect(refused.requestHeaders.authorization).toBe('SSWS [redacted]');
    expect(JSON.stringify(refused)).not.toContain('wrong-key-42');
  });

  it('keeps a stream as its events, and an agent run through the page as from the console', async () => {
    await raw('DELETE', '/console/api/log', page());
    const body = streamRequest('Where is order 1001?');
    const res = await raw(
      'POST',
      `/console/api/proxy/api/agents/v1/a2a/${seed.agents.orderStatus.agentId}/stream`,
      {
        ...page(),
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'content-length': String(body.length),
      },
      body,
    );
    expect(res.status).toBe(200);
    const [row] = JSON.parse((await raw('GET', '/console/api/log', page())).text).entries;
    expect(row).toMatchObject({ method: 'POST', status: 200, state: 'done', from: 'console' });
    const entry = JSON.parse((await raw('GET', `/console/api/log/${row.id}`, page())).text);
    expect(entry.requestBody).toBe(body);
    expect(entry.responseBody).toBe(res.text);
    expect(entry.responseBody).toContain('"state":"completed"');
    expect(entry.requestHeaders['user-agent']).toBe('Dataworkz emulator console');
  });

  it('keeps the most recent requests, within the recorded-request limits', async () => {
    const small = await startEmulator({
      console: true,
      apiKeys: [apiKey],
      limits: { maxRecordedRequests: 3 },
    });
    try {
      const smallHost = new URL(small.url).host;
      for (let i = 0; i < 5; i++) {
        await fetch(`${small.url}/api/agents/v1/?n=${i}`, { headers: { authorization: `SSWS ${apiKey}` } });
      }
      const res = await fetch(`${small.url}/console/api/log`, { headers: { host: smallHost } });
      const rows = ((await res.json()) as { entries: { query: string }[] }).entries;
      expect(rows.map((r) => r.query)).toEqual(['n=4', 'n=3', 'n=2']);
    } finally {
      await small.close();
    }
  });

  it('does not keep an exchange larger than the whole byte limit, and keeps the others', async () => {
    const small = await startEmulator({
      console: true,
      apiKeys: [apiKey],
      limits: { maxRecordedBytes: 8192 },
    });
    try {
      const smallHost = new URL(small.url).host;
      for (const [n, size] of [10, 10, 10, 10_000, 10].entries()) {
        await fetch(`${small.url}/api/no/such/thing?n=${n}`, {
          method: 'POST',
          headers: { authorization: `SSWS ${apiKey}` },
          body: 'x'.repeat(size),
        });
      }
      const res = await fetch(`${small.url}/console/api/log`, { headers: { host: smallHost } });
      const rows = ((await res.json()) as { entries: { query: string }[] }).entries;
      expect(rows.map((r) => r.query)).toEqual(['n=4', 'n=2', 'n=1', 'n=0']);
    } finally {
      await small.close();
    }
  });

  it('switches faults and a rate limit on, lists them and clears them', async () => {
    const post = (name: string, method: string, value: unknown) => {
      const text = JSON.stringify(value);
      return raw(method, `/console/api/${name}`, { ...page(), 'content-type': 'application/json' }, text);
    };
    const bad = await post('faults', 'POST', { status: 99 });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).message).toBe(
      "Fault rule field 'status' must be an HTTP status from 200 to 599",
    );
    const added = await post('faults', 'POST', { route: 'listQnaSystems', status: 503, times: 2 });
    expect(JSON.parse(added.text).faults).toEqual([
      { rule: { route: 'listQnaSystems', status: 503, times: 2 }, remaining: 2 },
    ]);
    const headers = { authorization: `SSWS ${apiKey}` };
    expect((await fetch(`${emu.url}/api/qna/v1/systems`, { headers })).status).toBe(503);
    expect(JSON.parse((await raw('GET', '/console/api/faults', page())).text).faults[0].remaining).toBe(1);

    const limited = await post('rate-limit', 'PUT', { perSecond: 0.5, burst: 1 });
    expect(JSON.parse(limited.text).rateLimit).toEqual({ perSecond: 0.5, burst: 1 });
    expect((await fetch(`${emu.url}/api/agents/v1/`, { headers })).status).toBe(200);
    expect((await fetch(`${emu.url}/api/agents/v1/`, { headers })).status).toBe(429);

    const cleared = JSON.parse((await raw('DELETE', '/console/api/faults', page())).text);
    expect(cleared.faults).toEqual([]);
    expect(cleared.rateLimit).toEqual({ perSecond: null, burst: null });
    expect((await fetch(`${emu.url}/api/qna/v1/systems`, { headers })).status).toBe(200);
    expect((await fetch(`${emu.url}/api/agents/v1/`, { headers })).status).toBe(200);
  });
});

/** The console's live channel, read as the page reads it: each event parsed, waited for by a test. */
async function liveChannel(base: string) {
  const abort = new AbortController();
  const res = await fetch(`${base}/console/api/events`, { signal: abort.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const events: EventSourceMessage[] = [];
  let wake = () => {};
  const reader = res.body
    ?.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  void (async () => {
    try {
      for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) {
        events.push(next.value);
        wake();
      }
    } catch {
      // Aborted by close().
    }
  })();
  // How far each type of event has been taken.
  const seen = new Map<string, number>();
  return {
    events,
    /** The next event of that type (after those already taken) whose data passes `test`. */
    async next<T>(type: string, test: (data: T) => boolean = () => true): Promise<T> {
      const deadline = Date.now() + 5000;
      for (;;) {
        for (let at = seen.get(type) ?? 0; at < events.length; at++) {
          const event = events[at] as EventSourceMessage;
          if (event.event !== type) continue;
          seen.set(type, at + 1);
          const data = JSON.parse(event.data) as T;
          if (test(data)) return data;
        }
        if (Date.now() > deadline) throw new Error(`No ${type} event came`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => abort.abort(),
  };
}

interface LiveState {
  faults: { rule: { route?: string }; remaining: number }[];
  rateLimit: { perSecond: number | null };
  openStreams: number;
  mode: {
    mode: string;
    recording?: { entries: number; bytes: number };
    drift?: { findings: { operationId: string; kind: string; at: string }[] };
  };
}

describe("the console's live channel", () => {
  it('sends the state at once, then each change: a fault added from code, used, used up, the rate limit', async () => {
    const live = await liveChannel(emu.url);
    try {
      expect(await live.next<LiveState>('state')).toEqual({
        faults: [],
        rateLimit: { perSecond: null, burst: null },
        openStreams: 0,
        mode: { mode: 'emulating' },
      });
      emu.faults.add({ route: 'listQnaSystems', status: 503, times: 2 });
      expect((await live.next<LiveState>('state')).faults).toEqual([
        { rule: { route: 'listQnaSystems', status: 503, times: 2 }, remaining: 2 },
      ]);
      const headers = { authorization: `SSWS ${apiKey}` };
      expect((await fetch(`${emu.url}/api/qna/v1/systems`, { headers })).status).toBe(503);
      expect((await live.next<LiveState>('state')).faults[0]?.remaining).toBe(1);
      expect((await fetch(`${emu.url}/api/qna/v1/systems`, { headers })).status).toBe(503);
      expect((await live.next<LiveState>('state')).faults).toEqual([]);
      // The request log rides the same channel.
      await live.next<{ path: string; status: number }>(
        'entry',
        (row) => row.path === '/api/qna/v1/systems' && row.status === 503,
      );
      const text = JSON.stringify({ perSecond: 5, burst: 2 });
      await raw('PUT', '/console/api/rate-limit', { ...page(), 'content-type': 'application/json' }, text);
      expect((await live.next<LiveState>('state')).rateLimit).toEqual({ perSecond: 5, burst: 2 });
      await raw('DELETE', '/console/api/faults', page());
      expect((await live.next<LiveState>('state')).rateLimit).toEqual({ perSecond: null, burst: null });
      // Nothing in it is a credential.
      expect(JSON.stringify(live.events)).not.toContain(apiKey);
    } finally {
      live.close();
    }
  });

  it('counts the A2A streams open, as they open and end', async () => {
    const slow = await startEmulator({ console: true, apiKeys: [apiKey], agentStepDelayMs: 150 });
    const live = await liveChannel(slow.url);
    try {
      await live.next<LiveState>('state', (s) => s.openStreams === 0);
      const streamed = fetch(`${slow.url}/api/agents/v1/a2a/${seed.agents.orderStatus.agentId}/stream`, {
        method: 'POST',
        headers: {
          authorization: `SSWS ${apiKey}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'message/stream',
          params: {
            message: {
              kind: 'message',
              messageId: 'm-live',
              role: 'user',
              parts: [{ kind: 'text', text: 'Where is order 1001?' }],
            },
          },
        }),
      }).then((res) => res.text());
      expect((await live.next<LiveState>('state', (s) => s.openStreams === 1)).openStreams).toBe(1);
      expect(await streamed).toContain('"state":"completed"');
      expect((await live.next<LiveState>('state', (s) => s.openStreams === 0)).openStreams).toBe(0);
    } finally {
      live.close();
      await slow.close();
    }
  });
});

describe("the console's overview and the key", () => {
  it('says what is running, without any credential', async () => {
    const res = await raw('GET', '/console/api/overview', page());
    expect(res.status).toBe(200);
    const overview = JSON.parse(res.text);
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    expect(overview).toMatchObject({
      version,
      a2aVersion: '0.3',
      credentials: ['an API key (SSWS)'],
      corsOrigins: [],
      listening: emu.url,
      extensionUri: emu.extensionUri,
    });
    expect(typeof overview.ranking).toBe('string');
    expect(res.text).not.toContain(apiKey);
  });

  it('gives the key to the page on this machine when asked, behind the same guard as the rest', async () => {
    const res = await raw('GET', '/console/api/key', page());
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.text)).toEqual({ apiKey });
    const port = new URL(emu.url).port;
    expect((await raw('GET', '/console/api/key', { host: `attacker.example:${port}` })).status).toBe(403);
    expect((await raw('GET', '/console/api/key', { host, origin: 'http://attacker.example' })).status).toBe(
      403,
    );
    expect((await raw('GET', '/console/api/key', { host, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it('says how an agent picks its scenarios, which its card does not', async () => {
    const res = await raw('GET', `/console/api/agents/${seed.agents.orderStatus.agentId}`, page());
    expect(res.status).toBe(200);
    const choice = JSON.parse(res.text) as {
      asksWhenUnmatched: boolean;
      scenarios: { id: string; name: string; keywords: string[] }[];
    };
    expect(choice.asksWhenUnmatched).toBe(true);
    expect(choice.scenarios.map((s) => s.id)).toEqual([
      'order-status',
      'return-eligibility',
      'customer-orders',
      'cancel-order',
    ]);
    expect(choice.scenarios[3]?.keywords).toContain('cancel');
    const unknown = await raw('GET', '/console/api/agents/no-such-agent', page());
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).message).toBe('No agent with id: no-such-agent');
  });

  it('tells a peer on this machine from one elsewhere', () => {
    const from = (remoteAddress: string, localAddress: string) =>
      fromThisMachine({ socket: { remoteAddress, localAddress } } as never);
    expect(from('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(from('::1', '::1')).toBe(true);
    expect(from('::ffff:127.0.0.1', '::ffff:127.0.0.1')).toBe(true);
    // The machine's own LAN address, reached from the machine itself.
    expect(from('192.168.1.20', '192.168.1.20')).toBe(true);
    expect(from('::ffff:192.168.1.20', '::ffff:192.168.1.20')).toBe(true);
    // Another machine, or a container's host through its bridge.
    expect(from('192.168.1.31', '192.168.1.20')).toBe(false);
    expect(from('172.17.0.1', '172.17.0.2')).toBe(false);
  });
});

describe("the console's live channel, recording", () => {
  it('shows the mode, the cassette as it grows and the drift found so far', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dwz-console-rec-'));
    const systemId = seed.systems.productDocs.systemId;
    const deployment = await startEmulator({
      apiKeys: [apiKey],
      faults: [
        { route: 'getQnaSystem', status: 200, body: JSON.stringify({ uuid: systemId, dimensions: 'x' }) },
      ],
    });
    const recorder = await startEmulator({
      console: true,
      record: deployment.url,
      cassette: join(dir, 'c.har'),
    });
    const live = await liveChannel(recorder.url);
    try {
      expect((await live.next<LiveState>('state')).mode).toMatchObject({
        mode: 'recording',
        recording: { entries: 0 },
        drift: { findings: [] },
      });
      await (
        await fetch(`${recorder.url}/api/qna/v1/systems/${systemId}`, {
          headers: { authorization: `SSWS ${apiKey}` },
        })
      ).text();
      const state = await live.next<LiveState>('state', (s) => s.mode.recording?.entries === 1);
      expect(state.mode.recording?.bytes).toBeGreaterThan(0);
      expect(state.mode.drift?.findings).toContainEqual(
        expect.objectContaining({ operationId: 'getQnaSystem', kind: 'type-mismatch', at: 'dimensions' }),
      );
    } finally {
      live.close();
      await recorder.close();
      await deployment.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
