// Every limit holds when its requests arrive at once: 2,000 of them over loopback, each on its own
// socket, the emulator's own count read as each answer arrives and on every turn of the event loop.
import {
  createEmulator,
  type Emulator,
  type EmulatorOptions,
  seed,
  startEmulator,
} from '@dataworkz/emulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type BurstResult, burst, countOf } from './support/burst.js';
import { cassetteOf, longStreamEntry } from './support/cassette.js';

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
const longStreamCassette = () =>
  cassetteOf(longStreamEntry(`https://dw.example${streamPath}`, streamBody('0.3', 0)));

describe('maxConcurrentStreams under 2,000 stream requests at once', () => {
  const max = 64;

  /**
   * Starts an emulator whose streams wait a day between their steps (none ends before the burst does,
   * so each slot stays held) and sends `total` stream requests at once; then checks that no more than
   * `max` were ever open and every other request got 429.
   */
  async function streamBurst(
    options: EmulatorOptions,
    request: (index: number) => { headers: Record<string, string>; body: string },
  ): Promise<{ running: Emulator; sent: BurstResult }> {
    const running = await startEmulator({
      apiKeys: [key],
      agentStepDelayMs: 86_400_000,
      limits: { maxConcurrentStreams: max },
      ...options,
    });
    emu = running;
    const sent = await burst(
      running.url,
      total,
      (index) => ({ method: 'POST', path: streamPath, ...request(index) }),
      () => running.openStreams,
    );
    result = sent;
    expect(sent.maxSampled).toBeLessThanOrEqual(max);
    expect(countOf(sent.statuses, 200)).toBe(max);
    expect(countOf(sent.statuses, 429)).toBe(total - max);
    return { running, sent };
  }

  it.each(['0.3', '1.0'] as const)(
    'never has more emulated streams open than the limit (A2A %s); the rest get 429',
    async (version) => {
      // The version each request names is the one it is served in.
      const { running, sent } = await streamBurst({}, (index) => ({
        headers: { ...auth, 'a2a-version': version },
        body: streamBody(version, index),
      }));
      expect(running.openStreams).toBe(max);
      // Every slot comes back once its client leaves.
      for (const res of sent.open) res.destroy();
      await vi.waitFor(() => expect(running.openStreams).toBe(0), { timeout: 30_000, interval: 20 });
    },
  );

  it('counts replayed and emulated streams against the one limit', async () => {
    // Even requests match the recorded stream; odd ones ask something else, which the fallback emulates.
    await streamBurst({ replay: longStreamCassette(), replayFallback: 'emulate' }, (index) => ({
      headers: auth,
      body: streamBody('0.3', index, index % 2 === 0 ? 'Where is order 1001?' : 'Where is order 1002?'),
    }));
  });
});

/**
 * `count` calls at once through an in-process emulator; `sample` read as answers arrive, one reading
 * at a time (a reading of the whole state per answer, all at once, would hold thousands of copies).
 */
async function inProcessBurst(
  count: number,
  send: (index: number) => Promise<Response>,
  sample: () => number | Promise<number>,
): Promise<{ statuses: number[]; maxSampled: number }> {
  let maxSampled = await sample();
  let reading: Promise<void> | undefined;
  const read = () => {
    reading ??= (async () => {
      maxSampled = Math.max(maxSampled, await sample());
      reading = undefined;
    })();
    return reading;
  };
  const statuses = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const res = await send(index);
      await res.arrayBuffer();
      await read();
      return res.status;
    }),
  );
  await reading;
  maxSampled = Math.max(maxSampled, await sample());
  return { statuses, maxSampled };
}

const base = 'https://dw.example';
const inProcessAuth = { authorization: `SSWS ${key}`, 'content-type': 'application/json' };
const send = (text: string, index: number, contextId?: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: index,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        role: 'user',
        messageId: `send-${index}`,
        ...(contextId === undefined ? {} : { contextId }),
        parts: [{ kind: 'text', text }],
      },
    },
  });

describe('every other limit under 2,000 requests at once', () => {
  it('keeps at most maxTasks tasks, within maxTaskBytes', async () => {
    const maxTasks = 50;
    const maxTaskBytes = 1024 * 1024;
    const emu = createEmulator({ apiKeys: [key], limits: { maxTasks, maxTaskBytes } });
    const taskBytes = async () => {
      const { tasks } = await emu.exportState();
      expect(tasks.length).toBeLessThanOrEqual(maxTasks);
      return tasks.reduce((sum, t) => sum + Buffer.byteLength(JSON.stringify(t.task)), 0);
    };
    const { statuses, maxSampled } = await inProcessBurst(
      total,
      (i) =>
        emu.fetch(`${base}${streamPath}`, {
          method: 'POST',
          headers: inProcessAuth,
          body: send('Where is order 1001?', i),
        }),
      taskBytes,
    );
    expect(countOf(statuses, 200)).toBe(total);
    expect(maxSampled).toBeLessThanOrEqual(maxTaskBytes);
    expect((await emu.exportState()).tasks).toHaveLength(maxTasks);
  });

  it('keeps at most maxConversations conversations, and maxTurnsPerContext turns in one', async () => {
    const maxConversations = 50;
    const maxTurnsPerContext = 10;
    const emu = createEmulator({ apiKeys: [key], limits: { maxConversations, maxTurnsPerContext } });
    const conversations = async () => (await emu.exportState()).conversations;
    /** `total` turns at once, turn `i` in the conversation `contextOf(i)`. */
    const turns = (contextOf: (i: number) => string, sample: () => Promise<number>) =>
      inProcessBurst(
        total,
        (i) =>
          emu.fetch(`${base}${streamPath}`, {
            method: 'POST',
            headers: inProcessAuth,
            body: send('Where is order 1001?', i, contextOf(i)),
          }),
        sample,
      );
    const many = await turns(
      (i) => `ctx-${i}`,
      async () => (await conversations()).length,
    );
    expect(countOf(many.statuses, 200)).toBe(total);
    expect(many.maxSampled).toBe(maxConversations);
    const one = await turns(
      () => 'ctx-one',
      async () => Math.max(0, ...(await conversations()).map((c) => c.turns.length)),
    );
    expect(countOf(one.statuses, 200)).toBe(total);
    expect(one.maxSampled).toBe(maxTurnsPerContext);
  });

  it('keeps at most maxQuestions answered questions', async () => {
    const maxQuestions = 50;
    const emu = createEmulator({ apiKeys: [key], limits: { maxQuestions } });
    const systemId = seed.systems.productDocs.systemId;
    const query = `questionText=How+do+I+reset+my+password%3F&llmProviderId=${seed.llms.productDocsSystem}`;
    const { statuses, maxSampled } = await inProcessBurst(
      total,
      () => emu.fetch(`${base}/api/qna/v1/systems/${systemId}/answer?${query}`, { headers: inProcessAuth }),
      async () => (await emu.exportState()).questions.length,
    );
    expect(countOf(statuses, 200)).toBe(total);
    expect(maxSampled).toBe(maxQuestions);
  });

  it('keeps at most maxRecordedRequests requests, within maxRecordedBytes', async () => {
    const maxRecordedRequests = 50;
    const maxRecordedBytes = 16 * 1024;
    const emu = createEmulator({ apiKeys: [key], limits: { maxRecordedRequests, maxRecordedBytes } });
    const padding = 'p'.repeat(500);
    const { statuses, maxSampled } = await inProcessBurst(
      total,
      (i) => emu.fetch(`${base}/api/agents/v1/?i=${i}&pad=${padding}`, { headers: inProcessAuth }),
      () => {
        const kept = emu.requests;
        expect(kept.length).toBeLessThanOrEqual(maxRecordedRequests);
        return kept.reduce((sum, r) => sum + Buffer.byteLength(r.query), 0);
      },
    );
    expect(countOf(statuses, 200)).toBe(total);
    // The queries alone are part of what is counted: their sum never passes the limit.
    expect(maxSampled).toBeLessThanOrEqual(maxRecordedBytes);
    expect(emu.requests.length).toBeGreaterThan(0);
  });

  it('refuses every body past maxBodyBytes, and every one nested past maxJsonDepth', async () => {
    const emu = createEmulator({ apiKeys: [key], limits: { maxBodyBytes: 1024 } });
    const large = send('x'.repeat(2048), 0);
    const tooLarge = await inProcessBurst(
      total,
      () => emu.fetch(`${base}${streamPath}`, { method: 'POST', headers: inProcessAuth, body: large }),
      () => emu.openStreams,
    );
    expect(countOf(tooLarge.statuses, 413)).toBe(total);
    const deep = `{"jsonrpc":"2.0","id":1,"method":"message/stream","params":${'{"a":'.repeat(70)}1${'}'.repeat(70)}}`;
    const tooDeep = await inProcessBurst(
      total,
      () => emu.fetch(`${base}${streamPath}`, { method: 'POST', headers: inProcessAuth, body: deep }),
      () => emu.openStreams,
    );
    expect(countOf(tooDeep.statuses, 400)).toBe(total);
    expect(tooDeep.maxSampled).toBe(0);
  });

  it('refuses every question past maxTextLength', async () => {
    const emu = createEmulator({ apiKeys: [key], limits: { maxTextLength: 100 } });
    const systemId = seed.systems.productDocs.systemId;
    const long = encodeURIComponent(`How do I reset my password ${'x'.repeat(200)}?`);
    const query = `questionText=${long}&llmProviderId=${seed.llms.productDocsSystem}`;
    const { statuses, maxSampled } = await inProcessBurst(
      total,
      () => emu.fetch(`${base}/api/qna/v1/systems/${systemId}/answer?${query}`, { headers: inProcessAuth }),
      async () => (await emu.exportState()).questions.length,
    );
    expect(countOf(statuses, 400)).toBe(total);
    expect(maxSampled).toBe(0);
  });

  it('admits at most the burst, and the rate for the time the burst took, past rateLimit', async () => {
    const rateLimit = 1;
    const rateLimitBurst = 10;
    const emu = createEmulator({ apiKeys: [key], limits: { rateLimit, rateLimitBurst } });
    const began = performance.now();
    const { statuses } = await inProcessBurst(
      total,
      () => emu.fetch(`${base}/api/agents/v1/`, { headers: inProcessAuth }),
      () => 0,
    );
    const seconds = (performance.now() - began) / 1000;
    const admitted = countOf(statuses, 200);
    expect(admitted).toBeGreaterThanOrEqual(rateLimitBurst);
    expect(admitted).toBeLessThanOrEqual(rateLimitBurst + Math.ceil(seconds * rateLimit));
    expect(countOf(statuses, 429)).toBe(total - admitted);
  });
});
