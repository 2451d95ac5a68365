import type { TaskState } from '../a2a-types.js';
import type { TaskUpdate } from '../task-update.js';

/** A step of the agent's run (a task update), as it happens. */
export interface AgentSseStep {
  type: 'step';
  taskId: string | undefined;
  contextId: string | undefined;
  step: TaskUpdate;
  /** The A2A event that carried it, only with `raw: true`. */
  raw?: unknown;
}

/** The agent's response, the stream's last event: `completed`, or `input-required` when it asks back. */
export interface AgentSseAnswer {
  type: 'answer';
  taskId: string | undefined;
  contextId: string | undefined;
  state: TaskState;
  text: string;
  /** The final A2A event, only with `raw: true`. */
  raw?: unknown;
}

/** The run failed: the stream's last event. `name` is the error's class (`TaskFailedError`, `ResumeFailedError`...). */
export interface AgentSseError {
  type: 'error';
  taskId: string | undefined;
  name: string;
  /** Redacted of every credential the client knows. */
  message: string;
}

/** One Server-Sent Event of an agent run, as `agentSseResponse` and `writeAgentSse` send it (its `data`, as JSON). */
export type AgentSseEvent = AgentSseStep | AgentSseAnswer | AgentSseError;

/** How an agent run is served as Server-Sent Events. */
export interface AgentSseOptions {
  /**
   * The request's `Last-Event-ID` header: a reconnecting `EventSource` sends it, and the stream then
   * follows the same task from where it stands instead of sending the message again. An id that ended
   * a stream (its answer or error) is answered with 204, which stops an `EventSource` reconnecting.
   */
  lastEventId?: string | readonly string[] | null | undefined;
  /** Add each event's A2A payload as `raw` (off by default: it is large and carries the service's internals). */
  raw?: boolean | undefined;
  /** The reconnection delay the browser is told to use, in ms (default: the browser's own, about 3 s). */
  retryMs?: number | undefined;
  /** A comment line every this many ms, so proxies keep a quiet stream open; 0 for none. Default 15000. */
  heartbeatMs?: number | undefined;
}
