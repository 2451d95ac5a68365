import type { Dataworkz } from '@dataworkz/client';
import { NotAStreamError } from './errors.js';
import { jsonRpcErrorOf } from './json-rpc.js';

// Enough of an unexpected body to show the server's message, without reading an unbounded one.
const MAX_UNEXPECTED_BODY = 64 * 1024;

async function readSome(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < MAX_UNEXPECTED_BODY) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // What arrived before the break is still the best account of the failure.
  } finally {
    reader.cancel().catch(() => {});
  }
  return text.slice(0, MAX_UNEXPECTED_BODY);
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

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
  const body = parseBody(await readSome(response));
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
