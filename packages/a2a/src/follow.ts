import type { A2AStreamEvent } from './a2a-types.js';
import type { AgentLink } from './agent.js';
import { toRunError } from './failure.js';
import { isRefusal } from './resume.js';
import type { SdkFetchOptions } from './sdk/fetch.js';

type Stream = AsyncIterator<A2AStreamEvent, void, undefined>;

// A stream that has ended: the run, finding no final event, gets back to the task as on any break.
const ENDED: Stream = { next: async () => ({ done: true, value: undefined }) };

/**
 * Opens a run on a task already under way: its events from a resubscription, the first being the task
 * as it stands. An agent that refuses to resubscribe gives the task as it stands instead (`tasks/get`),
 * and the run, with `resume` on, reads it again until it ends, as after any break.
 */
export async function openFollowed(
  agent: AgentLink,
  fetch: SdkFetchOptions,
  taskId: string,
  signal: AbortSignal,
  extensions: string,
): Promise<{ events: Stream; first: IteratorResult<A2AStreamEvent, void> }> {
  try {
    return await agent.send(signal, async () => {
      const events = agent.transport(fetch, true).resubscribe(taskId, { signal, extensions });
      return { events, first: await events.next() };
    });
  } catch (error) {
    if (!isRefusal(toRunError(error, signal))) throw error;
    const task = await agent.task('getTask', { id: taskId }, signal);
    return { events: ENDED, first: { done: false, value: task } };
  }
}
