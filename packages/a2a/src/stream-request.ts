import { type Dataworkz, readErrorBody } from '@dataworkz/client';
import { NotAStreamError } from './errors.js';
import { jsonRpcErrorOf } from './json-rpc.js';

function serverMessage(body: unknown): string {
  if (typeof body === 'string')
    return body.length > 300 ? `${body.slice(0, 300)}...` : body || '(empty body)';
  if (typeof body === 'object' && body !== null) {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof error === 'string' && error) return error;
  }
  const json = JSON.stringify(body);
  return json.length > 300 ? `${json.slice(0, 300)}...` : json;
}

async function notAStream(response: Response, contentType: string): Promise<Error> {
  const body = await readErrorBody(response);
  const rpcError = jsonRpcErrorOf(body);
  if (rpcError) return rpcError;
  return new NotAStreamError(
    response.status,
    body,
    response.headers,
    `Expected an event stream but got ${contentType || 'no content type'} (status ${response.status}): ${serverMessage(body)}`,
  );
}

/**
 * POSTs a JSON-RPC request that answers with Server-Sent Events, with the client's credential and
 * typed HTTP errors; a body that is not an event stream is a typed error showing the server's message.
 */
export async function postForEventStream(
  dw: Dataworkz,
  endpoint: string,
  request: unknown,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const response = await dw.authorizedFetch(endpoint, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(request),
    signal,
  });
  const contentType = response.headers.get('content-type') ?? '';
  if (!/^\s*text\/event-stream\s*(;|$)/i.test(contentType) || !response.body) {
    throw await notAStream(response, contentType);
  }
  return response.body;
}
