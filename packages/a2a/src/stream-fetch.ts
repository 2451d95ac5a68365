import type { Dataworkz } from '@dataworkz/client';
import { JsonRpcError, NotAStreamError } from './errors.js';
import { type EventStreamLimits, reframeEventStream } from './event-stream.js';

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

/** The JSON-RPC error a body carries, if it is a JSON-RPC error response. */
export function jsonRpcErrorOf(body: unknown): JsonRpcError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof code !== 'number') return undefined;
  return new JsonRpcError(code, typeof message === 'string' ? message : '(no message)', data);
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
 * The `fetchImpl` handed to the SDK's transport: the client's credential and typed HTTP errors,
 * a typed error for a body that is not an event stream, and the re-framed, bounded event stream.
 */
export function streamFetch(
  dw: Dataworkz,
  limits: EventStreamLimits,
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const response = await dw.authorizedFetch(input instanceof Request ? input.url : input, init);
    const contentType = response.headers.get('content-type') ?? '';
    if (!/^\s*text\/event-stream\s*(;|$)/i.test(contentType) || !response.body) {
      throw await notAStream(response, contentType);
    }
    const headers = new Headers(response.headers);
    headers.set('content-type', 'text/event-stream');
    return new Response(reframeEventStream(response.body, limits), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
