import {
  APIConnectionError,
  APIConnectionTimeoutError,
  DataworkzError,
  excerpt,
  MalformedResponseError,
} from '@dataworkz/client';
import type { A2AStreamEvent, TaskState } from './a2a-types.js';

/** The agent answered with a JSON-RPC error (before the stream began or inside it). */
export class JsonRpcError extends DataworkzError {
  // Written out: minifiers rename classes, and the name is what logs show.
  override name = 'JsonRpcError';
  readonly code: number;
  /** The error's `data`, when it has one. */
  declare readonly data?: unknown;

  constructor(code: number, message: string, data: unknown) {
    super(`JSON-RPC error ${code}: ${message}`);
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/** JSON-RPC code of A2A v1.0's `VersionNotSupportedError`. */
const VERSION_NOT_SUPPORTED = -32009;
// A version as agents name them: `Major.Minor`, perhaps with a patch number.
const VERSION = /^\d{1,4}\.\d{1,4}(?:\.\d{1,4})?$/;
// How the official SDK's v1 server words the versions it serves, when its error carries no metadata.
const SUPPORTED_IN_MESSAGE = /supported versions?:\s*([\d.,\s]{1,100})/i;

/** Version strings from a list or a comma-separated string; anything else is left out. */
function versionsIn(value: unknown): string[] {
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
  return items
    .slice(0, 20)
    .flatMap((item) => (typeof item === 'string' && VERSION.test(item.trim()) ? [item.trim()] : []));
}

/**
 * The versions an agent says it serves: a `google.rpc.ErrorInfo`'s `metadata.supportedVersions` (what
 * the emulator sends), a `supportedVersions` member (the HTTP+JSON problem's), else the SDK's message.
 */
function supportedVersionsOf(message: string, data: unknown): string[] {
  for (const entry of Array.isArray(data) ? data : [data]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { metadata, supportedVersions } = entry as { metadata?: unknown; supportedVersions?: unknown };
    const named = versionsIn(
      supportedVersions ?? (metadata as { supportedVersions?: unknown } | null)?.supportedVersions,
    );
    if (named.length > 0) return named;
  }
  return versionsIn(SUPPORTED_IN_MESSAGE.exec(message)?.[1] ?? '');
}

/**
 * The agent does not serve the A2A version the request named (JSON-RPC `-32009`, A2A v1.0's
 * `VersionNotSupportedError`). `supportedVersions` lists those it offered, when it named them; pass
 * one of them as `protocol` (or leave `protocol: 'auto'` to follow the agent card).
 */
export class VersionNotSupportedError extends JsonRpcError {
  override name = 'VersionNotSupportedError';
  /** The versions the agent said it serves (`['1.0', '0.3']`); empty when its error named none. */
  readonly supportedVersions: string[];

  constructor(message: string, data: unknown) {
    super(VERSION_NOT_SUPPORTED, message, data);
    this.supportedVersions = supportedVersionsOf(message, data);
  }
}

/** A JSON-RPC error answered by an agent, typed by its code. */
export function jsonRpcError(code: number, message: string, data: unknown): JsonRpcError {
  return code === VERSION_NOT_SUPPORTED
    ? new VersionNotSupportedError(message, data)
    : new JsonRpcError(code, message, data);
}

/** No `llmId` was given, and neither the agent nor the account has one; `cause` is the service's error. */
export class NoLlmError extends DataworkzError {
  override name = 'NoLlmError';
  constructor(cause: DataworkzError) {
    super(
      `No LLM could be determined for this agent: pass llmId, or configure one for the agent or the account (${cause.message})`,
      { cause },
    );
  }
}

/** The stream ended (cleanly) before its final event: the agent's answer never arrived. */
export class IncompleteStreamError extends DataworkzError {
  override name = 'IncompleteStreamError';
  /** The last event received, if any. */
  declare readonly lastEvent?: A2AStreamEvent;

  constructor(lastEvent: A2AStreamEvent | undefined) {
    super('The agent stream ended before its final event');
    if (lastEvent !== undefined) this.lastEvent = lastEvent;
  }
}

/** No bytes arrived on the stream for longer than the idle time-out. */
export class StreamIdleTimeoutError extends APIConnectionTimeoutError {
  override name = 'StreamIdleTimeoutError';

  constructor(readonly idleTimeoutMs: number) {
    super(`The agent stream sent nothing for ${idleTimeoutMs} ms`);
  }
}

/** One Server-Sent Event was larger than the limit; the stream was closed. */
export class StreamEventTooLargeError extends DataworkzError {
  override name = 'StreamEventTooLargeError';

  constructor(readonly maxEventBytes: number) {
    super(`An event of the agent stream exceeded ${maxEventBytes} bytes`);
  }
}

/** The stream carried something that is not an A2A event (bad JSON, a wrong JSON-RPC id, no result). */
export class StreamProtocolError extends DataworkzError {
  override name = 'StreamProtocolError';
}

/** A success status whose body is not an event stream, e.g. a JSON object; `body` holds what came. */
export class NotAStreamError extends MalformedResponseError {
  override name = 'NotAStreamError';
}

/** The agent's task ended `failed`, `rejected` or `canceled`. */
export class TaskFailedError extends DataworkzError {
  override name = 'TaskFailedError';
  readonly state: TaskState;
  declare readonly taskId?: string;
  declare readonly contextId?: string;
  /** The agent's own account of the failure (the final message's text), possibly empty. */
  readonly answer: string;

  /** `answer` must already be redacted: the message quotes a cut of it. */
  constructor(state: TaskState, answer: string, taskId: string | undefined, contextId: string | undefined) {
    super(`The agent's task ended ${state}${answer ? `: ${excerpt(answer, 300)}` : ''}`);
    this.state = state;
    this.answer = answer;
    if (taskId !== undefined) this.taskId = taskId;
    if (contextId !== undefined) this.contextId = contextId;
  }
}

/** The stream broke and the run could not get back to its task; `cause` is the last attempt's error. */
export class ResumeFailedError extends APIConnectionError {
  override name = 'ResumeFailedError';
  readonly taskId: string;
  /** Attempts made in a row to get back to the task. */
  readonly resumeAttempts: number;
  /** Time the run spent getting back to its task, over all its gaps, in ms. */
  readonly resumeMs: number;
  readonly streamError: DataworkzError;

  constructor(
    taskId: string,
    attempts: number,
    streamError: DataworkzError,
    cause: unknown,
    time: { elapsedMs: number; maxTotalMs?: number | undefined } = { elapsedMs: 0 },
  ) {
    const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
    const what =
      time.maxTotalMs === undefined
        ? `${tries} to resume task ${taskId} failed`
        : `task ${taskId} could not be resumed within resume.maxTotalMs (${time.maxTotalMs} ms; ${tries} in a row)`;
    super(`The agent stream broke (${streamError.message}) and ${what}`, { cause });
    this.taskId = taskId;
    this.resumeAttempts = attempts;
    this.resumeMs = time.elapsedMs;
    this.streamError = streamError;
  }
}
