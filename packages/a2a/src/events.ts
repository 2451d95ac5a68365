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

/**
 * The stream broke and the run got back to its task (by resubscribing, or by reading the task when
 * the agent refuses resubscription). Task updates and messages sent during the gap may be missing;
 * the artifacts and the final answer are complete.
 */
export interface AgentResumedEvent extends AgentEventBase<A2ATask | undefined> {
  type: 'resumed';
  /** How the run got back: a new subscription to the task, or reading it until it ends. */
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

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function partsOf(holder: unknown): unknown[] {
  const parts = isObject(holder) ? holder.parts : undefined;
  return Array.isArray(parts) ? parts : [];
}

/** The text parts of a message or artifact, joined. */
export function textOf(holder: unknown): string {
  let text = '';
  for (const part of partsOf(holder)) {
    if (isObject(part) && part.kind === 'text' && typeof part.text === 'string') text += part.text;
  }
  return text;
}

function isTaskUpdatePart(part: unknown): part is { data: Json; metadata: Json } {
  return (
    isObject(part) &&
    part.kind === 'data' &&
    isObject(part.data) &&
    isObject(part.metadata) &&
    part.metadata.type === SVC_STATUS_UPDATE
  );
}

function stateOf(status: unknown): TaskState {
  const state = isObject(status) ? status.state : undefined;
  return (typeof state === 'string' ? state : 'unknown') as TaskState;
}

/** The task updates a message carries, and whether it carries anything else. */
function splitTaskUpdates(
  message: unknown,
  raw: AgentTaskUpdateEvent['raw'],
  taskId: string | undefined,
  contextId: string | undefined,
  state: TaskState | undefined,
): { updates: AgentEvent[]; rest: number } {
  const updates: AgentEvent[] = [];
  let rest = 0;
  for (const part of partsOf(message)) {
    // The data passes as sent (an object); its fields are the service's, typed but not checked.
    if (isTaskUpdatePart(part)) {
      // Spelled out rather than spread from a common base: this runs for every event of a stream.
      updates.push({
        type: 'task-update',
        taskId,
        contextId,
        final: false,
        raw,
        state,
        data: part.data as TaskUpdate,
        metadata: part.metadata,
      });
    } else rest++;
  }
  return { updates, rest };
}

/** An answer chunk: by far the most frequent event of a long stream, so it is made first and directly. */
function artifactEvent(raw: Json, contextId: string | undefined): AgentArtifactEvent {
  const artifact = raw.artifact;
  if (!isObject(artifact)) throw new StreamProtocolError('An artifact-update event has no artifact');
  return {
    type: 'artifact',
    taskId: optionalString(raw.taskId),
    contextId,
    final: false,
    raw: raw as unknown as A2AArtifactUpdate,
    artifact: artifact as unknown as A2AArtifact,
    text: textOf(artifact),
    append: raw.append === true,
    lastChunk: raw.lastChunk === true,
  };
}

/**
 * The events of one A2A stream event: task updates get their own events; a status change or message
 * made only of task updates yields nothing else, unless it is final.
 */
export function toAgentEvents(raw: unknown): AgentEvent[] {
  if (!isObject(raw)) throw new StreamProtocolError('An agent stream event is not a JSON object');
  const contextId = optionalString(raw.contextId);
  switch (raw.kind) {
    case 'artifact-update':
      return [artifactEvent(raw, contextId)];
    case 'status-update': {
      const taskId = optionalString(raw.taskId);
      const event = raw as unknown as A2AStatusUpdate;
      const state = stateOf(raw.status);
      const message =
        isObject(raw.status) && isObject(raw.status.message)
          ? (raw.status.message as unknown as A2AMessage)
          : undefined;
      const final = raw.final === true;
      const { updates, rest } = splitTaskUpdates(message, event, taskId, contextId, state);
      const status: AgentStatusEvent = {
        type: 'status',
        taskId,
        contextId,
        final,
        raw: event,
        state,
        text: textOf(message),
        message,
      };
      if (updates.length === 0) return [status];
      if (rest === 0 && !final) return updates;
      updates.push(status);
      return updates;
    }
    case 'message': {
      const taskId = optionalString(raw.taskId);
      const event = raw as unknown as A2AMessage;
      const { updates, rest } = splitTaskUpdates(raw, event, taskId, contextId, undefined);
      if (updates.length > 0 && rest === 0) return updates;
      // A reply outside any task is the whole answer; a message within a task is progress.
      const final = taskId === undefined;
      const reply: AgentMessageEvent = {
        type: 'message',
        taskId,
        contextId,
        final,
        raw: event,
        message: event,
        text: textOf(raw),
      };
      updates.push(reply);
      return updates;
    }
    case 'task': {
      const taskId = optionalString(raw.id);
      const event = raw as unknown as A2ATask;
      const state = stateOf(raw.status);
      const message = isObject(raw.status) ? raw.status.message : undefined;
      const { updates } = splitTaskUpdates(message, event, taskId, contextId, state);
      const task: AgentTaskEvent = {
        type: 'task',
        taskId,
        contextId,
        final: hasEnded(state),
        raw: event,
        state,
        task: event,
      };
      updates.push(task);
      return updates;
    }
    default:
      return [{ type: 'unknown', taskId: optionalString(raw.taskId), contextId, final: false, raw }];
  }
}
