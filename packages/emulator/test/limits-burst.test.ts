// Every limit holds when its requests arrive at once: 2,000 of them over loopback, each on its own
// socket, the emulator's own count read as each answer arrives and on every turn of the event loop.
import { type Cassette, type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type BurstResult, burst, countOf } from './support/burst.js';

const total = 2000;
const key = 'burst-key-0123456789';
const auth = { authorization: `SSWS ${key}`, 'content-type': 'application/json' };
const orderStatus = seed.agents.orderStatus.agentId;
const streamPath = `/api/agents/v1/a2a/${orderStatus}/stream`;

/** A stream request in the A2A version spoken; `text` picks what a cassette matches. */
function streamBody(version: '0.3' | '1.0', index: number, text = 'Where is order 1001?'): string {
  if (version === '1.0') {
    return JSON.stringify({
      jsonrpc: '2.0',
      id: index,
      method: 'SendStreamingMessage',
      params: { message: { messageId: `burst-${index}`, role: 'ROLE_USER', parts: [{ text }] } },
    });
  }
  return JSON.stringify({
    jsonrpc: '2.0',
    id: index,
    method: 'message/stream',
    params: {
      message: {
        kind: 'message',
        role: 'user',
        messageId: `burst-${index}`,
        parts: [{ kind: 'text', text }],
      },
    },
  });
}

let emu: Emulator | undefined;
let result: BurstResult | undefined;
afterEach(async () => {
  for (const res of result?.open ?? []) res.destroy();
  result = undefined;
  await emu?.close();
  emu = undefined;
});

/** A recorded stream whose second event comes 24.8 days after its first: it stays open until closed. */
function longStreamCassette(): Cassette {
  const entry = {
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method: 'POST',
      url: `https://dw.example${streamPath}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }],
      queryString: [],
      postData: { mimeType: 'application/json', text: streamBody('0.3', 0) },
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'text/event-stream' }],
      content: { size: 0, mimeType: 'text/event-stream' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 0,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    _events: [
      { time: 0, data: '{"n":1}' },
      { time: 2 ** 31 - 1, data: '{"n":2}' },
    ],
  };
  return { log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [entry] } } as Cassette;
}

describe('maxConcurrentStreams under 2,000 stream requests at once', () => {
  const max = 64;

  it.each(['0.3', '1.0'] as const)(
    'never has more emulated streams open than the limit (A2A %s); the rest get 429',
    async (version) => {
      // Each stream waits a day between its steps: none ends before the burst does, so each slot stays held.
      emu = await startEmulator({
        apiKeys: [key],
        agentStepDelayMs: 86_400_000,
        a2aVersion: version,
        limits: { maxConcurrentStreams: max },
      });
      const running = emu;
      result = await burst(
        running.url,
        total,
        (index) => ({ method: 'POST', path: streamPath, headers: auth, body: streamBody(version, index) }),
        () => running.openStreams,
      );
      expect(result.maxSampled).toBeLessThanOrEqual(max);
      expect(countOf(result.statuses, 200)).toBe(max);
      expect(countOf(result.statuses, 429)).toBe(total - max);
      expect(running.openStreams).toBe(max);
      // Every slot comes back once its client leaves.
      for (const res of result.open) res.destroy();
      await vi.waitFor(() => expect(running.openStreams).toBe(0), { timeout: 30_000, interval: 20 });
    },
  );

  it('counts replayed and emulated streams against the one limit', async () => {
    // Even requests match the recorded stream; odd ones ask something else, which the fallback emulates.
    emu = await startEmulator({
      apiKeys: [key],
      agentStepDelayMs: 86_400_000,
      replay: longStreamCassette(),
      replayFallback: 'emulate',
      limits: { maxConcurrentStreams: max },
    });
    const running = emu;
    result = await burst(
      running.url,
      total,
      (index) => ({
        method: 'POST',
        path: streamPath,
        headers: auth,
        body: streamBody('0.3', index, index % 2 === 0 ? 'Where is order 1001?' : 'Where is order 1002?'),
      }),
      () => running.openStreams,
    );
    expect(result.maxSampled).toBeLessThanOrEqual(max);
    expect(countOf(result.statuses, 200)).toBe(max);
    expect(countOf(result.statuses, 429)).toBe(total - max);
  });
});
