// The emulator's agents are written against A2A v0.3 shapes (the service's protocol). Under v1.0,
// what the SDK's v1 server hands them (its core objects: `$case` parts, enum states and roles) is
// read into those shapes here; their v0.3 events go back through the SDK's own v0.3 → v1 reader.
import type { Message as LegacyMessage, Part as LegacyPart, Task as LegacyTask } from '@a2a-js/sdk';
import type { Message, Part, Task } from '@a2a-js/sdk-v1';
import { Role, type TaskState, taskStateToJSON } from '@a2a-js/sdk-v1';

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function legacyPart(part: Part): LegacyPart | undefined {
  const metadata = part.metadata ? { metadata: part.metadata } : {};
  const file = {
    ...(part.filename ? { name: part.filename } : {}),
    ...(part.mediaType ? { mimeType: part.mediaType } : {}),
  };
  const content = part.content;
  switch (content?.$case) {
    case 'text':
      return { kind: 'text', text: content.value, ...metadata };
    case 'data': {
      // v0.3 data is an object; v1.0 allows any JSON value.
      const value: unknown = content.value;
      const data = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { value };
      return { kind: 'data', data: data as { [key: string]: unknown }, ...metadata };
    }
    case 'raw':
      return { kind: 'file', file: { ...file, bytes: base64(content.value) }, ...metadata };
    case 'url':
      return { kind: 'file', file: { ...file, uri: content.value }, ...metadata };
    default:
      return undefined;
  }
}

/** A v1 message as the v0.3 message the agents read. */
export function legacyMessage(message: Message): LegacyMessage {
  return {
    kind: 'message',
    messageId: message.messageId,
    role: message.role === Role.ROLE_USER ? 'user' : 'agent',
    parts: message.parts.flatMap((part) => legacyPart(part) ?? []),
    ...(message.contextId ? { contextId: message.contextId } : {}),
    ...(message.taskId ? { taskId: message.taskId } : {}),
    ...(message.metadata ? { metadata: message.metadata } : {}),
    ...(message.extensions.length > 0 ? { extensions: message.extensions } : {}),
    ...(message.referenceTaskIds.length > 0 ? { referenceTaskIds: message.referenceTaskIds } : {}),
  };
}

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
function legacyState(state: TaskState): LegacyTask['status']['state'] {
  const name = taskStateToJSON(state)
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replaceAll('_', '-');
  return name as LegacyTask['status']['state'];
}

/** A v1 task as the v0.3 task the agents read (a continued task's history and pending question). */
export function legacyTask(task: Task): LegacyTask {
  const status = task.status;
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: {
      state: status ? legacyState(status.state) : 'unknown',
      ...(status?.message ? { message: legacyMessage(status.message) } : {}),
      ...(status?.timestamp ? { timestamp: status.timestamp } : {}),
    },
    history: task.history.map(legacyMessage),
    artifacts: task.artifacts.map((artifact) => ({
      artifactId: artifact.artifactId,
      parts: artifact.parts.flatMap((part) => legacyPart(part) ?? []),
      ...(artifact.name ? { name: artifact.name } : {}),
    })),
    ...(task.metadata ? { metadata: task.metadata } : {}),
  };
}
