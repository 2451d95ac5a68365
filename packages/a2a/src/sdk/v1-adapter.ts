// The SDK 1.x client speaks A2A v1.0 in its own objects (numeric enums, parts as `content.$case`,
// stream results as `payload.$case`). The run reads v0.3 shapes whichever version it speaks, so they
// are mapped here, both ways, field by field.

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
const STATES: readonly TaskState[] = [
  'unknown',
  'submitted',
  'working',
  'completed',
  'failed',
  'canceled',
  'input-required',
  'rejected',
  'auth-required',
];
const ROLE_USER = 1;
const ROLE_AGENT = 2;

/** The v0.3 name of a v1 task state; an unrecognised one is `unknown`. */
function stateFromV1(state: number): TaskState {
  return STATES[state] ?? 'unknown';
}

function withMetadata<T extends object>(target: T, metadata: Json | undefined): T {
  if (metadata !== undefined) (target as { metadata?: Json }).metadata = metadata;
  return target;
}

function partFromV1(part: V1Part): A2APart {
  const content = part.content;
  const file = {
    ...(part.filename ? { name: part.filename } : {}),
    ...(part.mediaType ? { mimeType: part.mediaType } : {}),
  };
  switch (content?.$case) {
    case 'text':
      return withMetadata({ kind: 'text', text: content.value }, part.metadata);
    case 'raw':
      return withMetadata({ kind: 'file', file: { ...file, bytes: base64Of(content.value) } }, part.metadata);
    case 'url':
      return withMetadata({ kind: 'file', file: { ...file, uri: content.value } }, part.metadata);
    case 'data': {
      // v1.0 data is any JSON value; v0.3's is an object, so others are wrapped under `value`.
      const value: unknown = content.value;
      const data = isObject(value) ? value : { value };
      return withMetadata({ kind: 'data', data }, part.metadata);
    }
    default:
      throw new StreamProtocolError('An A2A v1.0 part has none of text, raw, url or data');
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function messageFromV1(message: V1Message): A2AMessage {
  const out: A2AMessage = {
    kind: 'message',
    messageId: message.messageId,
    role: message.role === ROLE_USER ? 'user' : 'agent',
    parts: message.parts.map(partFromV1),
  };
  if (message.contextId) out.contextId = message.contextId;
  if (message.taskId) out.taskId = message.taskId;
  if (message.referenceTaskIds.length > 0) out.referenceTaskIds = message.referenceTaskIds;
  if (message.extensions.length > 0) out.extensions = message.extensions;
  return withMetadata(out, message.metadata);
}

function statusFromV1(status: V1TaskStatus | undefined): A2ATaskStatus {
  if (status === undefined) return { state: 'unknown' };
  const out: A2ATaskStatus = { state: stateFromV1(status.state) };
  if (status.message) out.message = messageFromV1(status.message);
  if (status.timestamp) out.timestamp = status.timestamp;
  return out;
}

function artifactFromV1(artifact: V1Artifact): A2AArtifact {
  const out: A2AArtifact = { artifactId: artifact.artifactId, parts: artifact.parts.map(partFromV1) };
  if (artifact.name) out.name = artifact.name;
  if (artifact.description) out.description = artifact.description;
  if (artifact.extensions.length > 0) out.extensions = artifact.extensions;
  return withMetadata(out, artifact.metadata);
}

/** A v1 task (the result of `GetTask`, `CancelTask`, or a stream's first event) in v0.3 shape. */
export function taskFromV1(task: V1Task): A2ATask {
  if (!task.id) throw new StreamProtocolError("The agent's result is not a task (it has no id)");
  const out: A2ATask = {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: statusFromV1(task.status),
  };
  if (task.artifacts.length > 0) out.artifacts = task.artifacts.map(artifactFromV1);
  if (task.history.length > 0) out.history = task.history.map(messageFromV1);
  return withMetadata(out, task.metadata);
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
      return withMetadata(
        {
          kind: 'status-update',
          taskId: event.taskId,
          contextId: event.contextId,
          // v1.0 has no `final` flag: a stream ends at a state that ends the run.
          final: endsRun(status.state),
          status,
        },
        event.metadata,
      );
    }
    case 'artifactUpdate': {
      const event = payload.value;
      if (!event.artifact) throw new StreamProtocolError('An artifact-update event has no artifact');
      return withMetadata(
        {
          kind: 'artifact-update',
          taskId: event.taskId,
          contextId: event.contextId,
          artifact: artifactFromV1(event.artifact),
          append: event.append,
          lastChunk: event.lastChunk,
        },
        event.metadata,
      );
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
    // The SDK's type says Node's Buffer; it only reads the bytes, which a Uint8Array holds.
    return { ...named, content: { $case: 'raw', value: bytesOf(part.file.bytes) as never } };
  }
  return { ...named, content: { $case: 'url', value: part.file.uri } };
}

/** A v0.3 message as the SDK's v1 client sends it. */
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
