// A2A v1.0's JSON-RPC wire, mapped to and from the v0.3 shapes the rest of the package reads: v1.0 has
// no `kind` discriminators, names its enums `TASK_STATE_*` / `ROLE_*`, flattens parts to
// `text | raw | url | data`, wraps each stream result in a one-key object and drops the `final` flag.

import type {
  A2AArtifact,
  A2AMessage,
  A2APart,
  A2AStreamEvent,
  A2ATask,
  A2ATaskStatus,
  TaskState,
} from '../a2a-types.js';
import { StreamProtocolError } from '../errors.js';

type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// v1.0 states that end a stream: terminal ones and the interrupted ones a client must answer.
const ENDING: ReadonlySet<TaskState> = new Set([
  'completed',
  'canceled',
  'failed',
  'rejected',
  'input-required',
  'auth-required',
]);

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`; an unknown state passes through lower-cased. */
export function stateFromV1(state: unknown): TaskState {
  if (typeof state !== 'string') return 'unknown';
  if (state === 'TASK_STATE_UNSPECIFIED') return 'unknown';
  const name = state.startsWith('TASK_STATE_') ? state.slice('TASK_STATE_'.length) : state;
  return name.toLowerCase().replaceAll('_', '-') as TaskState;
}

/** `input-required` → `TASK_STATE_INPUT_REQUIRED`. */
export function stateToV1(state: TaskState): string {
  return `TASK_STATE_${state.toUpperCase().replaceAll('-', '_')}`;
}

function withMetadata<T extends object>(target: T, metadata: unknown): T {
  if (isObject(metadata)) (target as { metadata?: Json }).metadata = metadata;
  return target;
}

function partFromV1(part: Json): A2APart {
  const mimeType = typeof part.mediaType === 'string' ? { mimeType: part.mediaType } : {};
  const name = typeof part.filename === 'string' ? { name: part.filename } : {};
  if (typeof part.text === 'string') return withMetadata({ kind: 'text', text: part.text }, part.metadata);
  if (typeof part.raw === 'string') {
    return withMetadata({ kind: 'file', file: { ...name, ...mimeType, bytes: part.raw } }, part.metadata);
  }
  if (typeof part.url === 'string') {
    return withMetadata({ kind: 'file', file: { ...name, ...mimeType, uri: part.url } }, part.metadata);
  }
  if ('data' in part) {
    // v1.0 data is any JSON value; v0.3's is an object, so others are wrapped under `value`.
    const data = isObject(part.data) ? part.data : { value: part.data };
    return withMetadata({ kind: 'data', data }, part.metadata);
  }
  throw new StreamProtocolError('An A2A v1.0 part has none of text, raw, url or data');
}

function partsFromV1(parts: unknown): A2APart[] {
  return Array.isArray(parts) ? parts.filter(isObject).map(partFromV1) : [];
}

/** A v0.3 part as v1.0 sends it. */
function partToV1(part: A2APart): Json {
  const out: Json = {};
  if (part.kind === 'text') out.text = part.text;
  else if (part.kind === 'data') out.data = part.data;
  else {
    if ('bytes' in part.file) out.raw = part.file.bytes;
    else out.url = part.file.uri;
    if (part.file.name !== undefined) out.filename = part.file.name;
    if (part.file.mimeType !== undefined) out.mediaType = part.file.mimeType;
  }
  if (part.metadata !== undefined) out.metadata = part.metadata;
  return out;
}

/** A v0.3 message as v1.0 sends it (`ROLE_*`, no `kind`). */
export function messageToV1(message: A2AMessage): Json {
  const { kind: _kind, role, parts, ...rest } = message;
  return { ...rest, role: role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT', parts: parts.map(partToV1) };
}

function messageFromV1(message: Json): A2AMessage {
  if (typeof message.messageId !== 'string') {
    throw new StreamProtocolError('An A2A v1.0 message has no messageId');
  }
  const out: A2AMessage = {
    kind: 'message',
    messageId: message.messageId,
    role: message.role === 'ROLE_USER' ? 'user' : 'agent',
    parts: partsFromV1(message.parts),
  };
  if (typeof message.contextId === 'string') out.contextId = message.contextId;
  if (typeof message.taskId === 'string') out.taskId = message.taskId;
  if (Array.isArray(message.referenceTaskIds)) out.referenceTaskIds = message.referenceTaskIds as string[];
  if (Array.isArray(message.extensions)) out.extensions = message.extensions as string[];
  return withMetadata(out, message.metadata);
}

function statusFromV1(status: unknown): A2ATaskStatus {
  const record = isObject(status) ? status : {};
  const out: A2ATaskStatus = { state: stateFromV1(record.state) };
  if (isObject(record.message)) out.message = messageFromV1(record.message);
  if (typeof record.timestamp === 'string') out.timestamp = record.timestamp;
  return out;
}

function artifactFromV1(artifact: Json): A2AArtifact {
  const out: A2AArtifact = {
    artifactId: typeof artifact.artifactId === 'string' ? artifact.artifactId : '',
    parts: partsFromV1(artifact.parts),
  };
  if (typeof artifact.name === 'string') out.name = artifact.name;
  if (typeof artifact.description === 'string') out.description = artifact.description;
  if (Array.isArray(artifact.extensions)) out.extensions = artifact.extensions as string[];
  return withMetadata(out, artifact.metadata);
}

/** A v1.0 task (the result of `GetTask`, `CancelTask` or a stream's first event) in v0.3 shape. */
export function taskFromV1(task: Json): A2ATask {
  if (typeof task.id !== 'string') throw new StreamProtocolError('An A2A v1.0 task has no id');
  const out: A2ATask = {
    kind: 'task',
    id: task.id,
    contextId: typeof task.contextId === 'string' ? task.contextId : '',
    status: statusFromV1(task.status),
  };
  if (Array.isArray(task.artifacts)) out.artifacts = task.artifacts.filter(isObject).map(artifactFromV1);
  if (Array.isArray(task.history)) out.history = task.history.filter(isObject).map(messageFromV1);
  return withMetadata(out, task.metadata);
}

/**
 * One v1.0 stream result (`{task}`, `{message}`, `{statusUpdate}` or `{artifactUpdate}`) as the
 * v0.3 event the run reads. v1.0 has no `final` flag; a status update is final when its state ends
 * the stream, as v0.3 servers set it.
 */
export function streamEventFromV1(result: unknown): A2AStreamEvent {
  if (!isObject(result)) throw new StreamProtocolError('An A2A v1.0 stream result is not an object');
  if (isObject(result.task)) return taskFromV1(result.task);
  if (isObject(result.message)) return messageFromV1(result.message);
  const status = result.statusUpdate ?? result.taskStatusUpdate;
  if (isObject(status)) {
    const mapped = statusFromV1(status.status);
    return withMetadata(
      {
        kind: 'status-update',
        taskId: String(status.taskId ?? ''),
        contextId: String(status.contextId ?? ''),
        final: ENDING.has(mapped.state),
        status: mapped,
      },
      status.metadata,
    );
  }
  const artifact = result.artifactUpdate ?? result.taskArtifactUpdate;
  if (isObject(artifact) && isObject(artifact.artifact)) {
    const out: A2AStreamEvent = {
      kind: 'artifact-update',
      taskId: String(artifact.taskId ?? ''),
      contextId: String(artifact.contextId ?? ''),
      artifact: artifactFromV1(artifact.artifact),
    };
    if (typeof artifact.append === 'boolean') out.append = artifact.append;
    if (typeof artifact.lastChunk === 'boolean') out.lastChunk = artifact.lastChunk;
    return withMetadata(out, artifact.metadata);
  }
  throw new StreamProtocolError(
    `An A2A v1.0 stream result has none of task, message, statusUpdate or artifactUpdate (keys: ${Object.keys(result).slice(0, 5).join(', ')})`,
  );
}
