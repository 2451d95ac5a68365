import { readBoundedText } from '../core/bounded-body.js';
import {
  excerpt,
  MalformedResponseError,
  QueryFailedError,
  ResponseTooLargeError,
  readString,
} from '../core/errors.js';
import type { Attempt, AttemptResult } from './transport.js';

// How much of a body that is not JSON a MalformedResponseError keeps, to show what came instead.
const MALFORMED_EXCERPT_CHARS = 1000;

/**
 * The JSON body of a 2xx response (openapi-fetch hands it over unread, `parseAs: 'stream'`), read up
 * to the attempt's `maxResponseBytes`; a body that is empty, too large or not JSON is a typed error.
 */
export async function readJson<T>(result: AttemptResult, attempt: Attempt): Promise<T> {
  const { response } = result;
  const limit = attempt.maxResponseBytes;
  const declared = Number(response.headers.get('content-length'));
  // A declared length past the limit, with nothing to decode, is refused before reading a byte.
  if (declared > limit && !response.headers.has('content-encoding')) {
    response.body?.cancel().catch(() => {});
    throw new ResponseTooLargeError(response.status, response.headers, limit);
  }
  const { text, overflow } = await readBoundedText(response.body, limit);
  if (overflow) throw new ResponseTooLargeError(response.status, response.headers, limit);
  if (text.length === 0) {
    throw new MalformedResponseError(
      response.status,
      '',
      response.headers,
      `Expected a JSON body but the response was empty (content-type: ${contentType(response)}).`,
    );
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new MalformedResponseError(
      response.status,
      // Redacted before it is cut, so no part of a credential survives the cut.
      excerpt(attempt.redact(text), MALFORMED_EXCERPT_CHARS),
      response.headers,
      `Expected a JSON body but it does not parse (content-type: ${contentType(response)}).`,
    );
  }
}

/** A search or answer body; `status: FAILED` becomes a QueryFailedError carrying the parsed body. */
export async function readQueryResult<T>(result: AttemptResult, attempt: Attempt): Promise<T> {
  const body = await readJson<T>(result, attempt);
  if (typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'FAILED') {
    throw new QueryFailedError(result.response.status, body, result.response.headers);
  }
  return body;
}

/**
 * The deprecated agent call's envelope; a failed execution (`status: FAILED` on the envelope or on
 * its `data`) becomes a QueryFailedError, as for search and answer.
 */
export async function readAgentResponse<T>(result: AttemptResult, attempt: Attempt): Promise<T> {
  const body = await readJson<T>(result, attempt);
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (readString(body, 'status') === 'FAILED' || readString(data, 'status') === 'FAILED') {
    const failureReason = readString(data, 'failureReason') ?? readString(body, 'failureReason');
    throw new QueryFailedError(result.response.status, body, result.response.headers, failureReason);
  }
  return body;
}

function contentType(response: Response): string {
  return response.headers.get('content-type') ?? 'none';
}
