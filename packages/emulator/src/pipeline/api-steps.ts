import type { ExchangeCapture } from '../capture/exchange.js';
import type { ReceivedBody } from '../http/body.js';
import type { Closing } from '../http/closing.js';
import { Query } from '../http/query.js';
import type { Reply } from '../http/reply.js';
import type { RouteLookup } from '../http/router.js';
import { fromUtf8 } from '../neutral/bytes.js';
import type { Incoming, Operations, PipelineParts } from '../pipeline.js';
import { answerFault } from './injected-fault.js';

/** One API request (or any other path the router answers) on its way through its mode's order. */
export interface ApiCall {
  readonly parts: PipelineParts;
  readonly operations: Operations;
  readonly incoming: Incoming;
  readonly path: string;
  /** The query as sent, without its `?`. */
  readonly query: string;
  readonly route: RouteLookup;
  /** Whether the path is one of the API's (`/api/...`): only those get faults and the rate limit. */
  readonly isApi: boolean;
  readonly closing: Closing;
  /** The reply the answer goes through: a fault in force replaces it with the faulted one. */
  reply: Reply;
  /** The exchange's capture, which every listener is handed. */
  readonly capture: ExchangeCapture;
  /** Once checked: whether the credentials were accepted, or why not. */
  credentials?: { refusal: unknown };
  /** Once read: the body, or why it was refused. */
  received?: ReceivedBody;
}

/** One step of an order; `'answered'` ends the order there. */
export type ApiStep = (call: ApiCall) => undefined | 'answered' | Promise<undefined | 'answered'>;

/** Checks the credentials; a refusal is kept, to be thrown at `refuseBadCredentials`. */
export async function checkCredentials(call: ApiCall): Promise<undefined> {
  const refusal = await call.parts.auth.check(call.incoming.headers.authorization).then(
    () => undefined,
    (error: unknown) => error,
  );
  call.credentials = { refusal };
  return undefined;
}

/** Reads the body up to `maxBodyBytes`; a refusal is kept, to be thrown at `refuseBadBody`. */
export async function readBody(call: ApiCall): Promise<undefined> {
  call.received = await call.incoming.readBody(call.parts.limits.maxBodyBytes);
  return undefined;
}

/**
 * The listeners hear the request (`emulator.requests`). Only requests with valid credentials are
 * kept: anyone can send the others, as large as they like.
 */
export function hear(call: ApiCall): undefined {
  const { credentials, received, incoming, path, query, capture } = call;
  if (credentials === undefined || credentials.refusal !== undefined || received === undefined) return;
  const { method, headers } = incoming;
  for (const listener of call.parts.listeners) {
    const { bytes: body, size } = received;
    listener.request?.({ method, path, query, headers, body, size, capture });
  }
  return undefined;
}

/** A body too large, or not wholly received, is refused. */
export function refuseBadBody(call: ApiCall): undefined {
  if (call.received?.refusal) throw call.received.refusal;
  return undefined;
}

/** A preflight request gets its answer (CORS headers are the exchange's own). */
export function answerPreflight(call: ApiCall): undefined | 'answered' {
  if (call.incoming.method !== 'OPTIONS') return undefined;
  call.reply.empty(204, { allow: 'GET, POST, DELETE, OPTIONS' });
  return 'answered';
}

/**
 * The next fault in force for the operation: its latency, then its answer, its dropped connection, or
 * the faulted reply the answer then goes through. API paths only, preflight requests never.
 */
export async function injectFault(call: ApiCall): Promise<undefined | 'answered'> {
  if (!call.isApi || call.incoming.method === 'OPTIONS') return undefined;
  const fault = call.parts.faults.take(call.route.operationId ?? '');
  if (fault === undefined) return undefined;
  const faulted = await answerFault(fault, call.path, call.reply, call.closing);
  if (faulted === undefined) return 'answered';
  call.reply = faulted;
  return undefined;
}

/** Credentials found wanting at `checkCredentials` are refused here. */
export function refuseBadCredentials(call: ApiCall): undefined {
  if (call.credentials === undefined) throw new Error('The credentials were never checked');
  if (call.credentials.refusal !== undefined) throw call.credentials.refusal;
  return undefined;
}

/** One token of the caller's rate limit (keyed by its credential), or the 429 that says when to retry. */
export function takeRateToken(call: ApiCall): undefined {
  if (call.isApi) call.parts.rateLimiter().take(call.incoming.headers.authorization ?? '');
  return undefined;
}

/** The cassette's answer for the request; a request it lacks gets the miss, or goes on when the fallback emulates. */
export function replayCassette(call: ApiCall): undefined | 'answered' {
  const { mode } = call.parts;
  if (mode.kind !== 'replay') throw new Error('Only a replaying emulator has a cassette');
  const { method, target } = call.incoming;
  const replayed = mode.replay(method, target, bodyText(call), (listener) => call.closing.on(listener));
  if (replayed.answer) {
    call.reply.answer(replayed.answer);
    return 'answered';
  }
  if (mode.fallback === 'emulate') return undefined;
  call.reply.json(replayed.miss.status, replayed.miss.body);
  return 'answered';
}

/** The emulated service's operation for the route (a 404 or a 405 when there is none). */
export async function runOperation(call: ApiCall): Promise<'answered'> {
  const { incoming, parts } = call;
  const resolved = call.route.resolve();
  await call.operations[resolved.operationId]({
    headers: incoming.headers,
    origin: incoming.origin,
    path: call.path,
    params: resolved.params,
    query: new Query(call.query, parts.limits.maxTextLength),
    body: bodyText(call),
    reply: call.reply,
    onClose: (listener) => call.closing.on(listener),
  });
  return 'answered';
}

/** The deployment's answer, passed on as it comes (the deployment judges the credentials). */
export async function forwardToDeployment(call: ApiCall): Promise<'answered'> {
  const { mode } = call.parts;
  if (mode.kind !== 'record') throw new Error('Only a recording emulator has a deployment');
  call.reply.forwarded(await mode.forward(call.incoming, (listener) => call.closing.on(listener)));
  return 'answered';
}

/** The body read, as text (none when no step read it). */
function bodyText(call: ApiCall): string {
  return call.received ? fromUtf8(call.received.bytes) : '';
}
