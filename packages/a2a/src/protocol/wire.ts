import type { A2AMessage, A2AStreamEvent, A2ATask } from '../a2a-types.js';
import { StreamProtocolError } from '../errors.js';
import { METHODS, protocolHeaders } from './headers.js';
import { messageToV1, streamEventFromV1, taskFromV1 } from './v1-wire.js';

/** An A2A version this package speaks. */
export type ProtocolVersion = '0.3' | '1.0';

/** What differs between the versions on the wire; the run reads v0.3 shapes either way. */
export interface Wire {
  readonly version: ProtocolVersion;
  readonly methods: { stream: string; resubscribe: string; get: string; cancel: string };
  /** The request headers: the version's own, and the extensions header under its name. */
  headers(extensions: string): Record<string, string>;
  /** The params of a streamed message. */
  messageParams(message: A2AMessage): unknown;
  /** The A2A event a stream result carries. */
  streamEvent(result: unknown): A2AStreamEvent;
  /** The task a `tasks/get` or `tasks/cancel` result carries. */
  task(result: unknown): A2ATask;
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const v03: Wire = {
  version: '0.3',
  methods: METHODS['0.3'],
  headers: (extensions) => protocolHeaders('0.3', extensions ? [extensions] : []),
  messageParams: (message) => ({ message }),
  streamEvent(result) {
    if (!isObject(result) || typeof result.kind !== 'string') {
      throw new StreamProtocolError('An agent stream event carries no A2A event');
    }
    return result as unknown as A2AStreamEvent;
  },
  task(result) {
    if (!isObject(result) || typeof result.id !== 'string' || !isObject(result.status)) {
      throw new StreamProtocolError("The agent's result is not a task");
    }
    return result as unknown as A2ATask;
  },
};

const v1: Wire = {
  version: '1.0',
  methods: METHODS['1.0'],
  headers: (extensions) => protocolHeaders('1.0', extensions ? [extensions] : []),
  messageParams: (message) => ({ message: messageToV1(message) }),
  streamEvent: streamEventFromV1,
  task(result) {
    if (!isObject(result)) throw new StreamProtocolError("The agent's result is not a task");
    return taskFromV1(result);
  },
};

/** The wire of a version. */
export function wireFor(version: ProtocolVersion): Wire {
  return version === '1.0' ? v1 : v03;
}
