import { streamAgent } from '@dataworkz/a2a';
import Dataworkz from '@dataworkz/client';
import { checked, type StreamReading, type StreamTarget, streamAgentId } from './stream-readers.js';

export const a2aName = '@dataworkz/a2a';

/** The SDK's wrapper as users call it: every event through the loop, then the final answer. */
export async function readWithDataworkz(target: StreamTarget): Promise<StreamReading> {
  const dw = clientFor(target);
  const started = performance.now();
  let firstEventMs = -1;
  let events = 0;
  const run = streamAgent(dw, streamAgentId(target.events), { text: 'go' });
  for await (const _event of run) {
    if (events === 0) firstEventMs = performance.now() - started;
    events++;
  }
  const { state } = await run.finalAnswer();
  if (state !== 'completed') throw new Error(`the run ended in state ${state}`);
  return checked(target, { events, firstEventMs, totalMs: performance.now() - started });
}

// Users make one client and reuse it: its construction is not part of a call.
const clients = new Map<string, Dataworkz>();

function clientFor(target: StreamTarget): Dataworkz {
  const key = `${target.url} ${target.apiKey}`;
  let dw = clients.get(key);
  if (!dw) {
    dw = new Dataworkz({ baseUrl: target.url, apiKey: target.apiKey });
    clients.set(key, dw);
  }
  return dw;
}
