import { isSecretName, SCRUB_MARGIN_BYTES } from '@dataworkz/redaction';
import { readBoundedText } from './bounded-body.js';

// Carried by every error of the family. Packages that stay free of dependencies (context-values)
// mark their errors with it, and `instanceof DataworkzError` recognises them (and errors of another
// copy of this package) by it.
const FAMILY = Symbol.for('@dataworkz/error');

/** The base of every error this package (and its sibling packages) throws. */
export class DataworkzError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` asks about, a subclass included.
    if (this !== DataworkzError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return value instanceof Error && (value as { [FAMILY]?: unknown })[FAMILY] === true;
  }

  // Written out: minifiers rename classes, and the name is what logs show.
  override name = 'DataworkzError';
  /**
   * How many HTTP attempts were made before this error was thrown (set by the request pipeline;
   * absent on errors thrown before anything was sent).
   */
  declare attempts?: number;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
Object.defineProperty(DataworkzError.prototype, FAMILY, { value: true });

/** A method was called with a missing or invalid argument; nothing was sent. */
export class InvalidParameterError extends DataworkzError {
  override name = 'InvalidParameterError';
  readonly parameter: string;

  constructor(parameter: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.parameter = parameter;
  }
}

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-correlation-id', 'x-amzn-requestid'];
// Headers that can carry credentials (the redaction policy's secret names) or describe how to get
// one; an error keeps the rest for debugging.
const isDroppedHeader = (name: string) => isSecretName(name) || name === 'www-authenticate';

/** The service answered with a status that is not a success, or with a body that cannot be used. */
export class APIError extends DataworkzError {
  override name = 'APIError';
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body when it was JSON, else its text (possibly empty); absent when none was read. */
  declare readonly body?: unknown;
  /** The request id the service sent, if any (absent otherwise, so printed errors stay short). */
  declare readonly requestId?: string;

  constructor(status: number, body: unknown, headers: Headers, message?: string) {
    super(message ?? describeStatus(status, body));
    this.status = status;
    this.headers = copySafeHeaders(headers);
    if (body !== undefined) this.body = body;
    const requestId = findRequestId(headers);
    if (requestId !== undefined) this.requestId = requestId;
  }

  /** The subclass for a status: 404 gives a NotFoundError, 503 an InternalServerError, and so on. */
  static generate(status: number, body: unknown, headers: Headers, message?: string): APIError {
    const ErrorClass = errorClassFor(status);
    return new ErrorClass(status, body, headers, message);
  }
}

export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
  /**
   * Set when the QnA system or agent id in the path is not UUID-shaped, as a name is: which resolver
   * finds the id a name names (`qna.resolve()`, `agents.resolve()`). The message ends with it too.
   */
  declare readonly hint?: string;
}

export class ConflictError extends APIError {
  override name = 'ConflictError';
}
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/** A successful status whose body is not what the operation returns (invalid JSON, an empty body). */
export class MalformedResponseError extends APIError {
  override name = 'MalformedResponseError';
}

/**
 * A search, an answer or the deprecated agent call came back with `status: FAILED` (for the agent
 * call, `data.status`); `failureReason` says why, `body` is the parsed response.
 */
export class QueryFailedError extends APIError {
  override name = 'QueryFailedError';
  declare readonly failureReason?: string;

  constructor(
    status: number,
    body: unknown,
    headers: Headers,
    failureReason = readString(body, 'failureReason'),
  ) {
    super(status, body, headers, `Query failed: ${failureReason ?? 'no failureReason given'}`);
    if (failureReason !== undefined) this.failureReason = failureReason;
  }
}

/**
 * A successful response whose body, decoded, is larger than `maxResponseBytes`: reading stopped at
 * the limit (so a compressed body cannot inflate without bound) and the request is not retried.
 */
export class ResponseTooLargeError extends APIError {
  override name = 'ResponseTooLargeError';
  /** The limit in force, in bytes. */
  readonly maxResponseBytes: number;

  constructor(status: number, headers: Headers, maxResponseBytes: number) {
    super(
      status,
      undefined,
      headers,
      `The response body is larger than maxResponseBytes (${maxResponseBytes} bytes); reading stopped there.`,
    );
    this.maxResponseBytes = maxResponseBytes;
  }
}

/** A redirect the client refuses to follow: a target that is not http(s), an unreadable `Location`, or too many hops. */
export class RedirectError extends DataworkzError {
  override name = 'RedirectError';
  /** The redirect's status. */
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** No response arrived: the connection could not be made, was reset, or dropped mid-body. */
export class APIConnectionError extends DataworkzError {
  override name = 'APIConnectionError';
  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The request did not complete within its time-out. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  constructor(message = 'Request timed out.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The caller's AbortSignal aborted the request. */
export class APIUserAbortError extends DataworkzError {
  override name = 'APIUserAbortError';
  constructor(message = 'Request was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

type APIErrorClass = new (status: number, body: unknown, headers: Headers, message?: string) => APIError;

function errorClassFor(status: number): APIErrorClass {
  switch (status) {
    case 400:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 422:
      return UnprocessableEntityError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? InternalServerError : APIError;
  }
}

function describeStatus(status: number, body: unknown): string {
  const detail =
    readString(body, 'message') ??
    readString(body, 'failureReason') ??
    readString(body, 'error') ??
    // A JSON-RPC error response nests its message: `{ error: { code, message } }`.
    readString(readObject(body, 'error'), 'message') ??
    (typeof body === 'string' && body.length > 0 ? body : undefined);
  if (detail === undefined) return `${status} status code (no body)`;
  return `${status} ${detail.length > 300 ? `${detail.slice(0, 300)}...` : detail}`;
}

function readObject(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined;
}

export function readString(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The request id a response names, under any of the usual header names. */
export function findRequestId(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) return value;
  }
  return undefined;
}

function copySafeHeaders(headers: Headers): Headers {
  const copy = new Headers();
  headers.forEach((value, name) => {
    if (!isDroppedHeader(name)) copy.append(name, value);
  });
  return copy;
}

/** What removes credentials from server text or data before it is kept: see `Dataworkz.redact`. */
export type Redactor = <T>(value: T) => T;

const keepAsIs: Redactor = (value) => value;

// Enough of an error body to show the server's message, without reading or keeping an unbounded one.
export const MAX_ERROR_BODY_CHARS = 64 * 1024;

/** `text` (already redacted) cut to `max` characters, marked with `...` when cut. */
export function excerpt(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/**
 * The body of a response that is not what the caller expected (an error status, a JSON body where a
 * stream was due), as an error keeps it: at most 64 KiB of text, parsed as JSON when it parses, with
 * every credential `redact` knows removed before anything is cut. A body that breaks off yields what
 * arrived before the break. Reading stops at the limit, so a huge or endless body costs nothing more.
 */
export async function readErrorBody(response: Response, redact: Redactor = keepAsIs): Promise<unknown> {
  const contentType = response.headers.get('content-type');
  const essence = /^\s*([^;\s]*)/.exec(contentType ?? '')?.[1]?.toLowerCase() ?? '';
  // Framings whose fields only a parser of their own could judge by name: an event stream's events,
  // a multipart body's parts. An error is read for its message, which neither carries.
  if (essence === 'text/event-stream' || essence.startsWith('multipart/')) {
    await response.body?.cancel().catch(() => {});
    return `The body is not shown: ${essence} is not read for an error, so it cannot be checked for secrets.`;
  }
  const charset = charsetOf(contentType);
  if (charset === undefined) {
    await response.body?.cancel().catch(() => {});
    return 'The body is not shown: its charset is not one this runtime reads, so it cannot be checked for secrets.';
  }
  // Read past what is kept, so a credential the cut would split is read whole and removed.
  const { text } = await readBoundedText(
    response.body,
    MAX_ERROR_BODY_CHARS + SCRUB_MARGIN_BYTES,
    true,
    charset,
  );
  // UTF-16 labelled as something else (or not at all) reads as text with NULs between its characters:
  // neither its members nor every form of a secret could be judged in it.
  if (text.includes('\0')) {
    return 'The body is not shown: it holds NUL characters (a charset other than the one declared), so it cannot be checked for secrets.';
  }
  const parsed = text.length <= MAX_ERROR_BODY_CHARS ? parseBody(text, essence) : text;
  const clean = redact(parsed);
  return typeof clean === 'string' && clean.length > MAX_ERROR_BODY_CHARS
    ? clean.slice(0, MAX_ERROR_BODY_CHARS)
    : clean;
}

/**
 * The typed error for a non-2xx response: reads and parses its body (JSON when it parses, else text),
 * takes the request id from the headers. Usable on any Response, e.g. one from `authorizedFetch`;
 * `redact` (e.g. `dw.redact`) removes credentials from the body and headers.
 */
export async function errorFromResponse(response: Response, redact: Redactor = keepAsIs): Promise<APIError> {
  const body = await readErrorBody(response, redact);
  return redact(APIError.generate(response.status, body, response.headers));
}

/**
 * The charset a `Content-Type` names (`charset=utf-16le`, any case, quoted or not), UTF-8 when it
 * names none; undefined when this runtime cannot decode it.
 */
function charsetOf(contentType: string | null): string | undefined {
  const label = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/**
 * JSON when the text parses as JSON, a form's fields (`name: value`, a repeated name's values in a
 * list) when it is `application/x-www-form-urlencoded`, so the redaction judges them by name; the
 * text itself otherwise.
 */
function parseBody(text: string, essence: string): unknown {
  if (text.length === 0) return text;
  if (essence === 'application/x-www-form-urlencoded') {
    const fields: Record<string, string | string[]> = {};
    for (const [name, value] of new URLSearchParams(text)) {
      const seen = Object.hasOwn(fields, name) ? fields[name] : undefined;
      fields[name] = seen === undefined ? value : [seen, value].flat();
    }
    return fields;
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
