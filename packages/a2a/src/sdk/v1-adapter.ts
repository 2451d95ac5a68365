// The SDK 1.x client speaks A2A v1.0 in its own objects (numeric enums, `$case` unions); the run reads
// v0.3 shapes whichever version it speaks, so they are mapped here, both ways, field by field.

import type {
  Artifact as V1Artifact,
  Message as V1Message,
  Part as V1Part,
  StreamResponse as V1StreamResponse,
  Task as V1Task,
  TaskStatus as V1TaskStatus,
} from '@a2a-js/sdk-v1';
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
import { endsRun } from '../task-states.js';

type Json = { [key: string]: unknown };

// The SDK's `TaskState` enum, by number (its `const enum` cannot be read at run time).
const STATES =
  'unknown submitted working completed failed canceled input-required rejected auth-required'.split(' ');
const ROLE_USER = 1;
const ROLE_AGENT = 2;

/** `target` with those of `fields` that hold something: v1.0 sends empty strings and lists where v0.3 leaves a field out. */
function withSet<T extends object>(target: T, fields: Json): T {
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    (target as Json)[key] = value;
  }
  return target;
}

function partFromV1(part: V1Part): A2APart {
  const { content, metadata } = part;
  const file = withSet({}, { name: part.filename, mimeType: part.mediaType });
  switch (content?.$case) {
    case 'text':
      return withSet({ kind: 'text', text: content.value }, { metadata });
    case 'raw': {
      const bytes = btoa(
        Array.from(content.value as Uint8Array, (byte) => String.fromCharCode(byte)).join(''),
      );
      return withSet({ kind: 'file', file: { ...file, bytes } }, { metadata });
    }
    case 'url':
      return withSet({ kind: 'file', file: { ...file, uri: content.value } }, { metadata });
    case 'data': {
      // v1.0 data is any JSON value; v0.3's is an object, so others are wrapped under `value`.
      const value: unknown = content.value;
      const data = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { value };
      return withSet({ kind: 'data', data: data as Json }, { metadata });
    }
    default:
      throw new StreamProtocolError('An A2A v1.0 part has none of text, raw, url or data');
  }
}

function messageFromV1(message: V1Message): A2AMessage {
  const { messageId, contextId, taskId, referenceTaskIds, extensions, metadata } = message;
  const role = message.role === ROLE_USER ? 'user' : 'agent';
  const out: A2AMessage = { kind: 'message', messageId, role, parts: message.parts.map(partFromV1) };
  return withSet(out, { contextId, taskId, referenceTaskIds, extensions, metadata });
}

function statusFromV1(status: V1TaskStatus | undefined): A2ATaskStatus {
  const state = (STATES[status?.state ?? 0] ?? 'unknown') as TaskState;
  const message = status?.message && messageFromV1(status.message);
  return withSet({ state }, { message, timestamp: status?.timestamp });
}

function artifactFromV1(artifact: V1Artifact): A2AArtifact {
  const { artifactId, name, description, extensions, metadata } = artifact;
  const out = { artifactId, parts: artifact.parts.map(partFromV1) };
  return withSet(out, { name, description, extensions, metadata });
}

/** A v1 task (the result of `GetTask`, `CancelTask`, or a stream's first event) in v0.3 shape. */
export function taskFromV1(task: V1Task): A2ATask {
  const { id, contextId, artifacts, history, metadata } = task;
  if (!id) throw new StreamProtocolError("The agent's result is not a task (it has no id)");
  const out: A2ATask = { kind: 'task', id, contextId, status: statusFromV1(task.status) };
  return withSet(out, {
    artifacts: artifacts.map(artifactFromV1),
    history: history.map(messageFromV1),
    metadata,
  });
}

/** One v1 stream result as the v0.3 event the run reads; a status update is final when its state ends the task. */
export function streamEventFromV1(response: V1StreamResponse): A2AStreamEvent {
  const payload = response.payload;
  switch (payload?.$case) {
    case 'task':
      return taskFromV1(payload.value);
    case 'message':
      return messageFromV1(payload.value);
    case 'statusUpdate': {
      const event = payload.value;
      const status = statusFromV1(event.status);
      const { taskId, contextId, metadata } = event;
      // v1.0 has no `final` flag: a stream ends at a state that ends the run.
      const final = endsRun(status.state);
      return withSet({ kind: 'status-update', taskId, contextId, final, status }, { metadata });
    }
    case 'artifactUpdate': {
      const event = payload.value;
      if (!event.artifact) throw new StreamProtocolError('An artifact-update event has no artifact');
      const { taskId, contextId, append, lastChunk, metadata } = event;
      const artifact = artifactFromV1(event.artifact);
      const out = { kind: 'artifact-update' as const, taskId, contextId, artifact, append, lastChunk };
      return withSet(out, { metadata });
    }
    default:
      throw new StreamProtocolError(
        'An A2A v1.0 stream result has none of task, message, statusUpdate or artifactUpdate',
      );
  }
}

function partToV1(part: A2APart): V1Part {
  const base = { metadata: part.metadata, filename: '', mediaType: '' };
  if (part.kind === 'text') return { ...base, content: { $case: 'text', value: part.text } };
  if (part.kind === 'data') return { ...base, content: { $case: 'data', value: part.data } };
  const named = { ...base, filename: part.file.name ?? '', mediaType: part.file.mimeType ?? '' };
  if ('bytes' in part.file) {
    const bytes = Uint8Array.from(atob(part.file.bytes), (char) => char.charCodeAt(0));
    // The SDK's type says Node's Buffer; it only reads the bytes, which a Uint8Array holds.
    return { ...named, content: { $case: 'raw', value: bytes as never } };
  }
  return { ...named, content: { $case: 'url', value: part.file.uri } };
}

export function messageToV1(message: A2AMessage): V1Message {
  return {
    messageId: message.messageId,
    contextId: message.contextId ?? '',
    taskId: message.taskId ?? '',
    role: message.role === 'user' ? ROLE_USER : ROLE_AGENT,
    parts: message.parts.map(partToV1),
    metadata: message.metadata,
    extensions: message.extensions ?? [],
    referenceTaskIds: message.referenceTaskIds ?? [],
  };
}
