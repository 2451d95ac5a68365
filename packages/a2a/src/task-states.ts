import type { TaskState } from './a2a-types.js';

// Every meaning this package gives a task state, in one place.
const ENDED = new Set<string>(['completed', 'failed', 'canceled', 'rejected']);
const FAILED = new Set<string>(['failed', 'rejected', 'canceled']);
// A task waiting on the user ends a run too: the service's stream closes there with `final: true`.
const WAITING = new Set<string>(['input-required', 'auth-required']);

/** Whether a task in this state has ended: nothing more will happen to it. */
export function hasEnded(state: TaskState | undefined): boolean {
  return state !== undefined && ENDED.has(state);
}

/** Whether a task ended without the answer asked for: its run rejects with TaskFailedError. */
export function hasFailed(state: TaskState): boolean {
  return FAILED.has(state);
}

/** Whether a task in this state has nothing more to stream: it ended, or waits on the user. */
export function endsRun(state: TaskState | undefined): boolean {
  return state !== undefined && (ENDED.has(state) || WAITING.has(state));
}
