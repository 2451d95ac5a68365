import type { Message } from '@a2a-js/sdk';
import { A2AError } from '@a2a-js/sdk/server';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isStringArray = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');

/**
 * Checks `params.message` of `message/stream` and `message/send` as the agent reads it, so a
 * malformed one is the caller's -32602 rather than a failure inside the run. Text parts together
 * may hold at most `maxTextLength` characters.
 */
export function checkMessage(message: unknown, maxTextLength: number): Message {
  const bad = (what: string) => A2AError.invalidParams(`params.message${what}`);
  if (!isObject(message)) throw bad(' must be a message object');
  if (message.kind !== 'message') throw bad(".kind must be 'message'");
  if (typeof message.messageId !== 'string' || message.messageId === '')
    throw bad('.messageId must be a non-empty string');
  if (message.role !== 'user' && message.role !== 'agent') throw bad(".role must be 'user' or 'agent'");
  for (const field of ['taskId', 'contextId'] as const) {
    if (message[field] !== undefined && typeof message[field] !== 'string')
      throw bad(`.${field} must be a string`);
  }
  for (const field of ['referenceTaskIds', 'extensions'] as const) {
    if (message[field] !== undefined && !isStringArray(message[field]))
      throw bad(`.${field} must be an array of strings`);
  }
  if (message.metadata !== undefined && !isObject(message.metadata)) throw bad('.metadata must be an object');
  if (!Array.isArray(message.parts) || message.parts.length === 0)
    throw bad('.parts must be a non-empty array');
  let textLength = 0;
  message.parts.forEach((part: unknown, i) => {
    const at = `.parts[${i}]`;
    if (!isObject(part)) throw bad(`${at} must be an object`);
    if (part.kind === 'text') {
      if (typeof part.text !== 'string') throw bad(`${at}.text must be a string`);
      textLength += part.text.length;
    } else if (part.kind === 'data') {
      // Its shape is the agent's business: malformed provided values fail the run with the reason.
      if (part.data === undefined) throw bad(`${at}.data is missing`);
    } else if (part.kind === 'file') {
      if (!isObject(part.file)) throw bad(`${at}.file must be an object`);
    } else {
      throw bad(`${at}.kind must be 'text', 'data' or 'file'`);
    }
    if (part.metadata !== undefined && !isObject(part.metadata))
      throw bad(`${at}.metadata must be an object`);
  });
  if (textLength > maxTextLength) {
    throw A2AError.invalidParams(`The message text is longer than ${maxTextLength} characters`, {
      maxTextLength,
    });
  }
  return message as unknown as Message;
}
