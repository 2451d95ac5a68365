import { streamAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { seed } from '@dataworkz/emulator';
import { errorSummary, latencies } from './figures.js';
import { countingFetch } from './wire-count.js';

export interface Target {
  url: string;
  apiKey: string;
}

export interface ScenarioResult {
  name: string;
  runs: number;
  errors: number;
  /** Events the emulator put on the wire that never reached the caller (streams only). */
  lostEvents: number;
  figures: string;
}

const agentId = seed.agents.orderStatus.agentId;
const systemId = seed.systems.productDocs.systemId;

/** `count` agent streams at once, each on its own client so its wire events are counted apart. */
export async function concurrentStreams(target: Target, count: number): Promise<ScenarioResult> {
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: count }, async () => {
      const wire = countingFetch();
      const dw = new Dataworkz({
        baseUrl: target.url,
        apiKey: target.apiKey,
        fetch: wire.fetch,
        maxRetries: 0,
      });
      const began = performance.now();
      try {
        const run = streamAgent(dw, agentId, { text: 'Where is order 1001?', idleTimeoutMs: 60_000 });
        // One A2A event can become several caller events; each carries the event it came from.
        const received = new Set<unknown>();
        for await (const event of run) received.add(event.raw);
        const { state } = await run.finalAnswer();
        if (state !== 'completed') throw new Error(`the run ended ${state}`);
        return {
          error: undefined,
          sent: wire.events(),
          received: received.size,
          ms: performance.now() - began,
        };
      } catch (error) {
        return { error, sent: wire.events(), received: 0, ms: performance.now() - began };
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const errors = outcomes.filter((o) => o.error !== undefined).map((o) => o.error);
  const sent = outcomes.reduce((sum, o) => sum + o.sent, 0);
  const lost = outcomes.reduce((sum, o) => sum + (o.error === undefined ? o.sent - o.received : 0), 0);
  return {
    name: 'concurrent A2A streams',
    runs: count,
    errors: errors.length,
    lostEvents: lost,
    figures: `${sent} events on the wire, ${seconds.toFixed(2)} s, ${latencies(outcomes.map((o) => o.ms))}, errors: ${errorSummary(errors)}`,
  };
}

/** One of the REST calls, chosen by index so the mix is the same on every run. */
function unaryCall(dw: Dataworkz, i: number): Promise<unknown> {
  switch (i % 4) {
    case 0:
      return dw.qna.list();
    case 1:
      return dw.qna.search(systemId, { query: 'warranty' });
    case 2:
      return dw.agents.list();
    default:
      return dw.qna.get(systemId);
  }
}

/** `count` REST calls at once through one client. */
export async function concurrentUnary(target: Target, count: number): Promise<ScenarioResult> {
  const dw = new Dataworkz({ baseUrl: target.url, apiKey: target.apiKey, maxRetries: 0 });
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const began = performance.now();
      const error = await unaryCall(dw, i).then(
        () => undefined,
        (e: unknown) => e ?? new Error('rejected without a reason'),
      );
      return { error, ms: performance.now() - began };
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const errors = outcomes.filter((o) => o.error !== undefined).map((o) => o.error);
  return {
    name: 'concurrent unary calls',
    runs: count,
    errors: errors.length,
    lostEvents: 0,
    figures: `${seconds.toFixed(2)} s, ${(count / seconds).toFixed(0)} calls/s, ${latencies(outcomes.map((o) => o.ms))}, errors: ${errorSummary(errors)}`,
  };
}

/** `count` REST calls, `parallel` at a time, through one client; returns the errors seen. */
export async function sequentialUnary(target: Target, count: number, parallel: number): Promise<unknown[]> {
  const dw = new Dataworkz({ baseUrl: target.url, apiKey: target.apiKey, maxRetries: 0 });
  const errors: unknown[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        await unaryCall(dw, i).catch((error: unknown) => errors.push(error));
      }
    }),
  );
  return errors;
}
