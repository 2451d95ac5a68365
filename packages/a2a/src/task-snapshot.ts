import type { A2ATask, TaskState } from './a2a-types.js';
import { type AgentEvent, toAgentEvents } from './events.js';

const ENDING_STATES = new Set<string>(['completed', 'failed', 'canceled', 'rejected']);
// A task waiting on the user ends the run too: the service's stream closes there with `final: true`.
const WAITING_STATES = new Set<string>(['input-required', 'auth-required']);

/** Whether a task in this state has nothing more to stream. */
export function endsRun(state: TaskState | undefined): boolean {
  return state !== undefined && (ENDING_STATES.has(state) || WAITING_STATES.has(state));
}

/** The id of the message a task's current status carries. */
export function statusMessageIdOf(task: A2ATask): string | undefined {
  return task.status?.message?.messageId;
}

/**
 * The events of a task snapshot in a resumed run: its status message's task updates unless the
 * stream already delivered that message (told by its id), then the task itself, final when the task
 * has ended or waits on the user.
 */
export function snapshotEvents(task: A2ATask, deliveredMessageId: string | undefined): AgentEvent[] {
  const seen = deliveredMessageId !== undefined && statusMessageIdOf(task) === deliveredMessageId;
  const events: AgentEvent[] = [];
  for (const event of toAgentEvents(task)) {
    if (event.type === 'task-update' && seen) continue;
    if (event.type === 'task') events.push({ ...event, final: endsRun(event.state) });
    else events.push(event);
  }
  return events;
}
