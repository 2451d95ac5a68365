// Every listener a run adds to an AbortSignal is removed when its attempt, body or run ends: a run
// that resumes many times, a stream kept open by comments, or many runs under one caller's signal
// must not make Node warn of a possible EventTarget leak (it does past ten listeners on one signal).
import { ResumeFailedError, streamAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  completed,
  type RawHandler,
  type RawServer,
  requestId,
  sseResult,
  startRawServer,
} from './support/raw-server.js';

const apiKey = 'listeners-suite-key';
// Quick attempts: the suite counts listeners, not how long a back-off waits.
const quick = { initialDelayMs: 1, maxDelayMs: 5, pollIntervalMs: 5 };

let server: RawServer;
let handler: RawHandler = (_req, res) => {
  res.end();
};
let dw: Dataworkz;
const methods: string[] = [];
const warnings: Error[] = [];
const onWarning = (warning: Error) => {
  warnings.push(warning);
};

beforeAll(async () => {
  server = await startRawServer((req, res, body) => {
    methods.push((body as { method: string }).method);
    return handler(req, res, body);
  });
  dw = new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => {
  warnings.length = 0;
  methods.length = 0;
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
});

const task = (state: string) => ({ kind: 'task', id: 't-1', contextId: 'c-1', status: { state } });

/** A step told: progress, so a cut stream is resumed again and again until the time runs out. */
const progress = (n: number) => ({
  kind: 'status-update',
  taskId: 't-1',
  contextId: 'c-1',
  final: false,
  status: {
    state: 'working',
    message: { kind: 'message', role: 'agent', messageId: `m-${n}`, parts: [{ kind: 'text', text: '.' }] },
  },
});

/**
 * Node emits a warning on the next tick after the listener that crossed the limit was added
 * (`process.emitWarning` defers it with `process.nextTick`): every tick queued so far has run once the
 * loop reaches its check phase, so a warning not there by then was never emitted.
 */
async function warningsSettled(): Promise<string[]> {
  await new Promise((resolve) => setImmediate(resolve));
  // The stack names where the listener that crossed the limit was added.
  return warnings.map((warning) => warning.stack ?? `${warning.name}: ${warning.message}`);
}

describe('abort listeners', () => {
  it('a run resumed more than ten times leaves no listener behind on any signal', async () => {
    // Every stream names the task, makes progress and is cut: the attempts never run out, the time does.
    let sent = 0;
    handler = (_req, res, body) => {
      sent++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseResult(requestId(body), task('working')));
      res.end(sseResult(requestId(body), progress(sent)));
    };
    const caller = new AbortController();
    const run = streamAgent(dw, 'agent-1', {
      text: 'Hi',
      signal: caller.signal,
      resume: { ...quick, maxAttempts: 3, maxTotalMs: 1_000 },
    });
    const error = await run.finalAnswer().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResumeFailedError);
    expect(methods.filter((method) => method === 'tasks/resubscribe').length).toBeGreaterThan(10);
    expect(await warningsSettled()).toEqual([]);
  });

  it('streams kept alive by heartbeat comments, cut more than ten times, leave no listener behind', async () => {
    // Each stream names the task, beats for a while with comments, makes progress and is cut.
    let sent = 0;
    handler = async (_req, res, body) => {
      sent++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseResult(requestId(body), task('working')));
      for (let beat = 0; beat < 20; beat++) res.write(': heartbeat\n\n');
      await new Promise((resolve) => setTimeout(resolve, 2));
      res.end(sseResult(requestId(body), progress(sent)));
    };
    const caller = new AbortController();
    const run = streamAgent(dw, 'agent-1', {
      text: 'Hi',
      signal: caller.signal,
      idleTimeoutMs: 1_000,
      resume: { ...quick, maxAttempts: 3, maxTotalMs: 1_000 },
    });
    const error = await run.finalAnswer().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResumeFailedError);
    expect(methods.filter((method) => method === 'tasks/resubscribe').length).toBeGreaterThan(10);
    expect(await warningsSettled()).toEqual([]);
  });

  it('one caller signal for many runs, heartbeats and all, leaves no listener behind', async () => {
    handler = async (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': heartbeat\n\n');
      res.write(sseResult(requestId(body), task('working')));
      res.write(': heartbeat\n\n');
      res.end(sseResult(requestId(body), completed('Done')));
    };
    const caller = new AbortController();
    for (let round = 0; round < 15; round++) {
      const run = streamAgent(dw, 'agent-1', { text: 'Hi', signal: caller.signal, resume: quick });
      expect((await run.finalAnswer()).answer).toBe('Done');
    }
    expect(await warningsSettled()).toEqual([]);
  });

  it('runs made under one caller signal and never iterated leave no listener behind', async () => {
    const caller = new AbortController();
    const runs = Array.from({ length: 15 }, () =>
      streamAgent(dw, 'agent-1', { text: 'Hi', signal: caller.signal }),
    );
    expect(runs).toHaveLength(15);
    expect(methods).toEqual([]);
    expect(await warningsSettled()).toEqual([]);
  });
});
