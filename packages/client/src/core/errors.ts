/** The base of every error this package throws. */
export class DataworkzError extends Error {
  // Written out: minifiers rename classes, and the name is what logs show.
  override name = 'DataworkzError';
  /** How many HTTP attempts were made before this error was thrown (set by the request pipeline). */
  attempts: number | undefined;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.attempts = undefined;
  }
}

/** A method was called with a missing or invalid argument; nothing was sent. */
export class InvalidParameterError extends DataworkzError {
  override name = 'InvalidParameterError';
  readonly parameter: string;

  constructor(parameter: string, message: string) {
    super(message);
    this.parameter = parameter;
  }
}

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-correlation-id', 'x-amzn-requestid'];
// Headers that can carry credentials or session state; an error keeps the rest for debugging.
const SENSITIVE_RESPONSE_HEADERS = new Set([
  'set-cookie',
  'set-cookie2',
  'authorization',
  'www-authenticate',
]);

/** The service answered with a status that is not a success, or with a body that cannot be used. */
export class APIError extends DataworkzError {
  override name = 'APIError';
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body when it was JSON, else its text (possibly empty). */
  readonly body: unknown;
  readonly requestId: string | undefined;

  constructor(status: number, body: unknown, headers: Headers, message?: string) {
    super(message ?? describeStatus(status, body));
    this.status = status;
    this.headers = copySafeHeaders(headers);
    this.body = body;
    this.requestId = findRequestId(headers);
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

/** A search or answer came back with `status: FAILED`; `failureReason` says why, `body` is the parsed response. */
export class QueryFailedError extends APIError {
  override name = 'QueryFailedError';
  readonly failureReason: string | undefined;

  constructor(status: number, body: unknown, headers: Headers) {
    const failureReason = readString(body, 'failureReason');
    super(status, body, headers, `Query failed: ${failureReason ?? 'no failureReason given'}`);
    this.failureReason = failureReason;
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

function readString(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function findRequestId(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) return value;
  }
  return undefined;
}

function copySafeHeaders(headers: Headers): Headers {
  const copy = new Headers();
  headers.forEach((value, name) => {
    if (!SENSITIVE_RESPONSE_HEADERS.has(name)) copy.append(name, value);
  });
  return copy;
}

// Enough of an error body to show the server's message, without reading or keeping an unbounded one.
const MAX_ERROR_BODY_CHARS = 64 * 1024;

/** An error body as an error keeps it: text beyond 64 KiB is cut off. */
export function boundErrorBody(body: unknown): unknown {
  return typeof body === 'string' && body.length > MAX_ERROR_BODY_CHARS
    ? body.slice(0, MAX_ERROR_BODY_CHARS)
    : body;
}

/**
 * The body of a response that is not what the caller expected (an error status, a JSON body where a
 * stream was due): at most 64 KiB of it, parsed as JSON when it parses, else its text. A body that
 * breaks off yields what arrived before the break.
 */
export async function readErrorBody(response: Response, scrub?: (text: string) => string): Promise<unknown> {
  let text = '';
  const reader = response.body?.getReader();
  if (reader) {
    const decoder = new TextDecoder();
    try {
      while (text.length < MAX_ERROR_BODY_CHARS) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // What arrived before the break is still the best account of the failure.
    } finally {
      reader.cancel().catch(() => {});
    }
  }
  text = boundErrorBody(text) as string;
  return parseBody(scrub ? scrub(text) : text);
}

/**
 * The typed error for a non-2xx response: reads and parses its body (JSON when it parses, else text),
 * takes the request id from the headers. Usable on any Response, e.g. one from `authorizedFetch`.
 */
export async function errorFromResponse(
  response: Response,
  scrub?: (text: string) => string,
): Promise<APIError> {
  return APIError.generate(response.status, await readErrorBody(response, scrub), response.headers);
}

/** JSON when the text parses as JSON, the text itself otherwise. */
function parseBody(text: string): unknown {
  if (text.length === 0) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
