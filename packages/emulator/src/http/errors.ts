import { statusText } from './status-text.js';

/** A refusal the emulator answers with the spec's `Error` body. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The 429 for a stream past `maxConcurrentStreams`, emulated or replayed alike. */
export function tooManyStreams(): HttpError {
  return new HttpError(
    429,
    'Too many open streams; retry shortly',
    { 'retry-after': '1' },
    'TOO_MANY_STREAMS',
  );
}

/** The spec's `Error` shape: timestamp, status, error, message, path (plus `code` where one helps). */
export function errorBody(
  status: number,
  message: string,
  path: string,
  code?: string,
): Record<string, unknown> {
  return {
    timestamp: new Date().toISOString(),
    status,
    error: statusText[status] ?? 'Error',
    message,
    path,
    ...(code ? { code } : {}),
  };
}
