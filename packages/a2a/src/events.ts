import type {
  A2AArtifact,
  A2AArtifactUpdate,
  A2AMessage,
  A2AStatusUpdate,
  A2ATask,
  TaskState,
} from './a2a-types.js';
import { StreamProtocolError } from './errors.js';
import { hasEnded } from './task-states.js';
import type { TaskUpdate } from './task-update.js';

/** The `metadata.type` of the data parts that carry the service's task updates. */
export const SVC_STATUS_UPDATE = 'SVC_STATUS_UPDATE';

/** What every event of a run carries. */
export interface AgentEventBase<Raw> {
  taskId: string | undefined;
  contextId: string | undefined;
  /** Whether this event ends the run (the agent's response, successful or not). */
  final: boolean;
  /** The A2A event as the service sent it. */
  raw: Raw;
}

/** The task as it stands, usually first on a stream. */
export interface AgentTaskEvent extends AgentEventBase<A2ATask> {
  type: 'task';
  state: TaskState;
  task: A2ATask;
}

/** A task update the service reports while the agent works: a `SVC_STATUS_UPDATE` data part. */
export interface AgentTaskUpdateEvent extends AgentEventBase<A2AStatusUpdate | A2AMessage | A2ATask> {
  type: 'task-update';
  /** The update's own data, as the service sent it: a step of the agent's run. */
  data: TaskUpdate;
  /** The part's metadata (`type` is `SVC_STATUS_UPDATE`). */
  metadata: { [key: string]: unknown };
  /** The task state of the event that carried it, when it has one. */
  state: TaskState | undefined;
}

/** A change of the task's status; the final one carries the agent's response. */
export interface AgentStatusEvent extends AgentEventBase<A2AStatusUpdate> {
  type: 'status';
  state: TaskState;
  /** The text parts of the status message, joined. */
  text: string;
  message: A2AMessage | undefined;
}

/** An artifact, or a chunk of one, produced by the task. */
export interface AgentArtifactEvent extends AgentEventBase<A2AArtifactUpdate> {
  type: 'artifact';
  artifact: A2AArtifact;
  text: string;
  append: boolean;
  lastChunk: boolean;
}

/** A message from the agent outside a task update (a direct reply ends the run). */
export interface AgentMessageEvent extends AgentEventBase<A2AMessage> {
  type: 'message';
  message: A2AMessage;
  text: string;
}

/** The stream broke and the run got back to its task; task updates sent during the gap may be missing. */
export interface AgentResumedEvent extends AgentEventBase<A2ATask | undefined> {
  type: 'resumed';
  /** How the run got back: resubscribing, or reading the task until it ends (the agent refused). */
  via: 'resubscribe' | 'poll';
  /** Time from the break to the task's snapshot, in ms. */
  gapMs: number;
  /** The attempts it took (1 when the first one succeeded). */
  attempts: number;
  /** What broke the stream. */
  error: Error;
  /** The task's state in the snapshot, when it came with one. */
  state: TaskState | undefined;
  /** The artifacts as they now stand, the snapshot's merged with what the stream had delivered. */
  artifacts: A2AArtifact[];
}

/** An event of a kind this package does not know, passed through untouched. */
export interface AgentUnknownEvent extends AgentEventBase<unknown> {
  type: 'unknown';
}

/** One event of a streamed agent run. */
export type AgentEvent =
  | AgentTaskEvent
  | AgentTaskUpdateEvent
  | AgentStatusEvent
  | AgentArtifactEvent
  | AgentMessageEvent
  | AgentResumedEvent
  | AgentUnknownEvent;

type Json = { [key: string]: unknown };
type TaskUpdateBase = Omit<AgentTaskUpdateEvent, 'type' | 'data' | 'metadata'>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text parts of a message or artifact, joined. */
export function textOf(holder: unknown): string {
  const parts = isObject(holder) ? holder.parts : undefined;
  let text = '';
  if (!Array.isArray(parts)) return text;
  for (const part of parts) if (part?.kind === 'text' && typeof part.text === 'string') text += part.text;
  return text;
}

/** Adds to `events` the task updates a message carries; returns how many of its parts are not. */
function addTaskUpdates(events: AgentEvent[], message: unknown, base: TaskUpdateBase): number {
  const parts = isObject(message) ? message.parts : undefined;
  if (!Array.isArray(parts)) return 0;
  let rest = 0;
  for (const part of parts) {
    const { data, metadata } = isObject(part) && part.kind === 'data' ? part : {};
    // The data passes as sent (an object); its fields are the service's, typed but not checked.
    if (isObject(data) && isObject(metadata) && metadata.type === SVC_STATUS_UPDATE) {
      events.push({ type: 'task-update', ...base, data: data as TaskUpdate, metadata });
    } else rest++;
  }
  return rest;
}

/** The events of one A2A event; a status or message of task updates alone yields no more, unless final. */
export function toAgentEvents(raw: unknown): AgentEvent[] {
  if (!isObject(raw)) throw new StreamProtocolError('An agent stream event is not a JSON object');
  const contextId = typeof raw.contextId === 'string' ? raw.contextId : undefined;
  const id = raw.kind === 'task' ? raw.id : raw.taskId;
  const taskId = typeof id === 'string' ? id : undefined;
  switch (raw.kind) {
    case 'artifact-update': {
      // An answer chunk: by far the most frequent event, so it is made first and directly.
      const artifact = raw.artifact;
      if (!isObject(artifact)) throw new StreamProtocolError('An artifact-update event has no artifact');
      return [
        {
          type: 'artifact',
          taskId,
          contextId,
          final: false,
          raw: raw as unknown as A2AArtifactUpdate,
          artifact: artifact as unknown as A2AArtifact,
          text: textOf(artifact),
          append: raw.append === true,
          lastChunk: raw.lastChunk === true,
        },
      ];
    }
    case 'status-update':
    case 'task': {
      const status: Json = isObject(raw.status) ? raw.status : {};
      const state = (typeof status.state === 'string' ? status.state : 'unknown') as TaskState;
      const message = isObject(status.message) ? (status.message as unknown as A2AMessage) : undefined;
      const events: AgentEvent[] = [];
      const event = raw as unknown as A2ATask | A2AStatusUpdate;
      const rest = addTaskUpdates(events, message, { taskId, contextId, final: false, raw: event, state });
      const final = event.kind === 'task' ? hasEnded(state) : raw.final === true;
      if (event.kind === 'task') {
        events.push({ type: 'task', taskId, contextId, final, raw: event, state, task: event });
      } else if (events.length === 0 || rest > 0 || final) {
        const text = textOf(message);
        events.push({ type: 'status', taskId, contextId, final, raw: event, state, text, message });
      }
      return events;
    }
    case 'message': {
      const message = raw as unknown as A2AMessage;
      const events: AgentEvent[] = [];
      const base = { taskId, contextId, final: false, raw: message, state: undefined };
      const rest = addTaskUpdates(events, raw, base);
      // A reply outside any task is the whole answer; a message within a task is progress.
      if (events.length === 0 || rest > 0) {
        const final = taskId === undefined;
        events.push({ type: 'message', taskId, contextId, final, raw: message, message, text: textOf(raw) });
      }
      return events;
    }
    default:
      return [{ type: 'unknown', taskId, contextId, final: false, raw }];
  }
}
