import { MalformedResponseError, QueryFailedError } from './errors.js';
import type { AttemptResult } from './transport.js';

/** The JSON body of a 2xx response read as text by openapi-fetch; a body that is not JSON is a typed error. */
export function readJson<T>(result: AttemptResult): T {
  const { data, response } = result;
  if (typeof data !== 'string' || data.length === 0) {
    const type = response.headers.get('content-type') ?? 'none';
    throw new MalformedResponseError(
      response.status,
      '',
      response.headers,
      `Expected a JSON body but the response was empty (content-type: ${type}).`,
    );
  }
  try {
    return JSON.parse(data) as T;
  } catch {
    const type = response.headers.get('content-type') ?? 'none';
    throw new MalformedResponseError(
      response.status,
      data.length > 1000 ? `${data.slice(0, 1000)}...` : data,
      response.headers,
      `Expected a JSON body but it does not parse (content-type: ${type}).`,
    );
  }
}

/** A search or answer body; `status: FAILED` becomes a QueryFailedError carrying the parsed body. */
export function readQueryResult<T>(result: AttemptResult): T {
  const body = readJson<T>(result);
  if (typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'FAILED') {
    throw new QueryFailedError(result.response.status, body, result.response.headers);
  }
  return body;
}
