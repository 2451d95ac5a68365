import { type Dataworkz, excerpt, type Redactor } from '@dataworkz/client';
import { readErrorBody } from '@dataworkz/client/internal';
import { type Context, context } from '@opentelemetry/api';
import { type JsonRpcError, jsonRpcError, NotAStreamError } from '../errors.js';
import { type SseBodyLimits, sseBody } from './sse-body.js';

/** The `fetch` the SDK's transports are given: what they may call, and nothing more. */
export type SdkFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface SdkFetchOptions {
  /** What error messages call the request. */
  operation: string;
  /** For a JSON answer, the whole call; for an event stream, the wait for its headers. */
  timeout?: number | undefined;
  limits?: Omit<SseBodyLimits, 'signal'> | undefined;
  /** Set to each response's redactor as it arrives: it removes the credential that request sent. */
  redact: Redactor;
  /** The run's context: the SDK calls this fetch in its iterators, under the context of `next()`'s caller. */
  traceContext?: (() => Context) | undefined;
}

// How much of the server's own words an error message quotes.
const MESSAGE_CHARS = 300;
const EVENT_STREAM = /^\s*text\/event-stream\s*(;|$)/i;

/**
 * A `fetch` for the SDK through the client's `authorizedFetch`, whose typed errors the SDK's would lose.
 * A stream's answer is checked before the SDK sees it: 0.3.14 calls a JSON-RPC error body a wrong
 * content type, and compares the content type exactly.
 */
export function sdkFetch(dw: Dataworkz, options: SdkFetchOptions): SdkFetch {
  return async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const stream = new Headers(init.headers).get('accept') === 'text/event-stream';
    const request = () =>
      dw.authorizedFetch(url, { ...init, stream, timeout: options.timeout, operation: options.operation });
    const response = await (options.traceContext ? context.with(options.traceContext(), request) : request());
    const redact: Redactor = (value) => dw.redact(value, response);
    options.redact = redact;
    if (!stream) return response;
    const contentType = response.headers.get('content-type') ?? '';
    if (!EVENT_STREAM.test(contentType) || !response.body) {
      throw await notAStream(response, contentType, redact);
    }
    const limits = { idleTimeoutMs: 0, maxEventBytes: Infinity, ...options.limits };
    const body = sseBody(response.body, { ...limits, signal: init.signal ?? new AbortController().signal });
    const headers = new Headers(response.headers);
    headers.set('content-type', 'text/event-stream');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

export function jsonRpcErrorOf(body: unknown): JsonRpcError | undefined {
  const error = (body as { error?: { code?: unknown; message?: unknown; data?: unknown } } | null)?.error;
  if (typeof error !== 'object' || error === null || typeof error.code !== 'number') return undefined;
  const { code, message, data } = error;
  return jsonRpcError(code, typeof message === 'string' ? message : '(no message)', data);
}

function serverMessage(body: unknown): string {
  if (typeof body === 'string') return excerpt(body, MESSAGE_CHARS) || '(empty body)';
  const { message, error } = (body ?? {}) as { message?: unknown; error?: unknown };
  const text = [message, error].find((value) => typeof value === 'string' && value !== '');
  return excerpt(typeof text === 'string' ? text : JSON.stringify(body), MESSAGE_CHARS);
}

async function notAStream(response: Response, contentType: string, redact: Redactor): Promise<Error> {
  // Redacted as it is read, before any cut: no part of a credential survives in the message.
  const body = await readErrorBody(response, redact);
  const rpcError = jsonRpcErrorOf(body);
  if (rpcError) return redact(rpcError);
  const message = `Expected an event stream but got ${contentType || 'no content type'} (status ${response.status}): ${serverMessage(body)}`;
  return new NotAStreamError(response.status, body, response.headers, message);
}
