import { InvalidParameterError } from '@dataworkz/client';
import type { A2AMessage, A2APart } from './a2a-types.js';

export interface MessageInput {
  text?: string | undefined;
  parts?: readonly A2APart[] | undefined;
  contextId?: string | undefined;
  taskId?: string | undefined;
  messageId?: string | undefined;
  metadata?: { [key: string]: unknown } | undefined;
}

function optionalId(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw new InvalidParameterError(name, `${name} must be a non-empty string.`);
  }
  return value;
}

// randomUUID is missing in browsers' insecure contexts; getRandomValues is everywhere.
function newMessageId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The user message of a turn: the text first, then any further parts. */
export function userMessage(input: MessageInput): A2AMessage {
  if (input.text !== undefined && typeof input.text !== 'string') {
    throw new InvalidParameterError('text', 'text must be a string.');
  }
  if (input.parts !== undefined && !Array.isArray(input.parts)) {
    throw new InvalidParameterError('parts', 'parts must be an array of A2A parts.');
  }
  const parts: A2APart[] = [
    ...(input.text ? [{ kind: 'text' as const, text: input.text }] : []),
    ...(input.parts ?? []),
  ];
  if (parts.length === 0) {
    throw new InvalidParameterError('text', 'A message needs text or at least one part.');
  }
  const message: A2AMessage = {
    kind: 'message',
    role: 'user',
    messageId: optionalId('messageId', input.messageId) ?? newMessageId(),
    parts,
  };
  const contextId = optionalId('contextId', input.contextId);
  const taskId = optionalId('taskId', input.taskId);
  if (contextId) message.contextId = contextId;
  if (taskId) message.taskId = taskId;
  if (input.metadata) message.metadata = input.metadata;
  return message;
}
