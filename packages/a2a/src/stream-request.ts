import { type Dataworkz, excerpt, type Redactor, readErrorBody } from '@dataworkz/client';
import { NotAStreamError } from './errors.js';
import { jsonRpcErrorOf } from './json-rpc.js';

/** An open event stream: its body, and what removes the credential that request sent from server text. */
export interface EventStreamResponse {
  body: ReadableStream<Uint8Array>;
  redact: Redactor;
}

// How much of the server's own words an error message quotes.
const MESSAGE_CHARS = 300;

function serverMessage(body: unknown): string {
  if (typeof body === 'string') return excerpt(body, MESSAGE_CHARS) || '(empty body)';
  if (typeof body === 'object' && body !== null) {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (typeof message === 'string' && message) return excerpt(message, MESSAGE_CHARS);
    if (typeof error === 'string' && error) return excerpt(error, MESSAGE_CHARS);
  }
  return excerpt(JSON.stringify(body), MESSAGE_CHARS);
}

async function notAStream(response: Response, contentType: string, redact: Redactor): Promise<Error> {
  // Redacted as it is read, before any cut: no part of a credential survives in the message.
  const body = await readErrorBody(response, redact);
  const rpcError = jsonRpcErrorOf(body);
  if (rpcError) return redact(rpcError);
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
 * `headersTimeoutMs` bounds the wait for the response headers (default: the client's `timeout`).
 */
export async function postForEventStream(
  dw: Dataworkz,
  endpoint: string,
  request: unknown,
  headers: Record<string, string>,
  signal: AbortSignal,
  headersTimeoutMs: number | undefined,
): Promise<EventStreamResponse> {
  const response = await dw.authorizedFetch(endpoint, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(request),
    signal,
    stream: true,
    timeout: headersTimeoutMs,
    operation: 'streamAgent',
  });
  const redact: Redactor = (value) => dw.redact(value, response);
  const contentType = response.headers.get('content-type') ?? '';
  if (!/^\s*text\/event-stream\s*(;|$)/i.test(contentType) || !response.body) {
    throw await notAStream(response, contentType, redact);
  }
  return { body: response.body, redact };
}
