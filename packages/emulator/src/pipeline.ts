import { consoleMarker, type ExchangeWatch } from './console/exchange-log.js';
import { type Asset, answerPage, consolePath } from './console/page.js';
import type { ControlContext } from './control/context.js';
import { controlOperation } from './control/operations.js';
import type { AccessGuard, Surface } from './http/access-guard.js';
import type { Answer } from './http/answer.js';
import type { Authenticator } from './http/auth.js';
import type { ReceivedBody } from './http/body.js';
import { Closing } from './http/closing.js';
import { type CorsOptions, corsHeaders } from './http/cors.js';
import { errorBody, HttpError } from './http/errors.js';
import type { Exchange } from './http/exchange.js';
import type { FaultList } from './http/faults.js';
import { parseJsonBody } from './http/json-body.js';
import { Query } from './http/query.js';
import type { RateLimiter } from './http/rate-limit.js';
import { Outlet, Reply } from './http/reply.js';
import { lookupRoute, type OperationId } from './http/router.js';
import type { Limits } from './limits.js';
import type { Log } from './logger.js';
import { fromUtf8 } from './neutral/bytes.js';

/** One request as an adapter (node:http, or a Fetch API `Request`) hands it to the pipeline. */
export interface Incoming {
  method: string;
  /** The request target as sent: the path and the query, if any. */
  target: string;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** `http://host:port` as the caller reached the emulator, for links in answers. */
  origin: string;
  /** Whether the peer is on this machine (see `Caller.local`): code in this process is. */
  local: boolean;
  /** Reads the body, keeping at most `limit` bytes. */
  readBody(limit: number): Promise<ReceivedBody> | ReceivedBody;
  /** Calls `listener` once the client goes away (closed socket, aborted request). */
  onGone(listener: () => void): void;
  /** The headers as sent, names and values in turn, for a mode that passes them on (recording). */
  rawHeaders?: readonly string[];
  /** `1.1`, as the request line said it. */
  httpVersion?: string;
  /** The body as it arrives, unread, for a mode that passes it on (recording). */
  bodyStream?(): AsyncIterable<Uint8Array>;
}

/** The emulated service's operations, by the spec's operationId. */
export type Operations = Record<OperationId, (ex: Exchange) => void | Promise<void>>;

/** Where API requests go besides the emulated service: a cassette, or a deployment being recorded. */
export type Mode =
  | { kind: 'emulate' }
  | {
      kind: 'replay';
      /** A recorded answer, or the closest recorded request when none matches. */
      replay(
        method: string,
        target: string,
        body: string,
        onClose: (listener: () => void) => void,
      ): { answer: Answer } | { answer: undefined; miss: { status: number; body: Record<string, unknown> } };
      /** What a request the cassette lacks gets: the miss (a 404 naming the closest entry), or an emulated answer. */
      fallback: 'miss' | 'emulate';
    }
  | {
      kind: 'record';
      /** The deployment's answer, passed on as it comes (the deployment judges the credentials). */
      forward(incoming: Incoming, onClose: (listener: () => void) => void): Promise<Answer>;
    };

/** An API request with valid credentials, as received (what `emulator.requests` keeps). */
interface ReceivedRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  /** The headers as sent, names and values in turn (repeats kept), when the adapter has them. */
  rawHeaders: readonly string[] | undefined;
  body: Uint8Array;
  size: number;
}

/** What the pipeline's listeners hear: each request with valid credentials, each exchange as it starts. */
export interface PipelineListeners {
  request?(request: ReceivedRequest): void;
  /** Returns what follows the exchange (its body, its answer); not called for the console's own requests. */
  exchange?(
    requestId: string,
    method: string,
    target: string,
    headers: Record<string, string>,
    /** The headers as sent, names and values in turn (repeats kept), when the adapter has them. */
    rawHeaders: readonly string[] | undefined,
  ): ExchangeWatch;
}

/** Everything the pipeline consults, each step its own part. */
export interface PipelineParts {
  auth: Authenticator;
  guard: AccessGuard;
  limits: Limits;
  log: Log;
  cors: CorsOptions | undefined;
  faults: FaultList;
  /** The rate limiter in force (a console may replace it while the emulator runs). */
  rateLimiter(): RateLimiter;
  /** The emulated service's operations, once its state is built; every request waits for them. */
  operations: Promise<Operations>;
  mode: Mode;
  control: ControlContext;
  /** The console page's files, when the emulator serves the console. */
  consoleAssets: ReadonlyMap<string, Asset> | undefined;
  listeners: PipelineListeners[];
}

export interface Pipeline {
  /** Answers one request; rejects with a TypeError when a fault drops the connection before the headers. */
  handle(incoming: Incoming): Promise<Answer>;
  /** Ends every exchange in progress (open streams first of all); settles once each has finished. */
  closeAll(): Promise<void>;
}

const controlPrefix = '/_emulator/';
const consoleApiPrefix = '/console/api/';
const consoleProxy = '/console/api/proxy';

/** Headers every answer of the console carries: nothing cached, sniffed, framed or referred. */
const consoleHeaders = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** Headers the console page may pass on to the API (never a credential: the console adds its own). */
const proxiedHeaders = ['content-type', 'accept', 'x-a2a-extensions', 'a2a-extensions'];

/**
 * The one path of every request, whichever adapter received it (node:http, or `createEmulator().fetch`):
 *
 * 1. the guard, for the console and the control routes (who may use them);
 * 2. the credentials, for the API (refused only after faults apply: faults reach any caller);
 * 3. the limits (body size, rate limit) and the faults in force;
 * 4. the mode: the emulated service, a cassette replayed, or a deployment recorded;
 * 5. the listeners (the requests kept, the console's request log) hear each exchange as it goes.
 */
export function createPipeline(parts: PipelineParts): Pipeline {
  const { auth, guard, limits, log, faults } = parts;
  // Each exchange in progress, with the promise of its end.
  const active = new Map<Closing, Promise<void>>();
  let requestCounter = 0;

  function handle(incoming: Incoming): Promise<Answer> {
    const path = pathOf(incoming.target);
    if (parts.consoleAssets && (path === consolePath || path.startsWith(`${consolePath}/`))) {
      return consoleRequest(incoming, path);
    }
    return exchange(incoming, 'service', (watched, reply, closing) =>
      path.startsWith(controlPrefix)
        ? controlRequest(watched, 'control', path.slice(controlPrefix.length), reply, closing)
        : apiRequest(watched, path, reply, closing),
    );
  }

  /** The console: the guard first; then its page, its proxy to the API, or a control operation. */
  async function consoleRequest(incoming: Incoming, path: string): Promise<Answer> {
    const surface: Surface = path.startsWith(consoleApiPrefix) ? 'console-api' : 'console-page';
    const refusal = await guard.refusal(incoming, surface);
    const isProxy = path === consoleProxy || path.startsWith(`${consoleProxy}/`);
    const apiTarget = incoming.target.slice(consoleProxy.length);
    if (refusal === undefined && isProxy && apiTarget.startsWith('/api/')) {
      return handle(proxied(incoming, apiTarget));
    }
    return exchange(incoming, 'console', (_, reply, closing) => {
      if (refusal !== undefined) throw refusal;
      if (isProxy) throw new HttpError(404, 'The console forwards only API paths', {}, 'NOT_FOUND');
      if (surface === 'console-page') {
        answerPage(parts.consoleAssets ?? new Map(), incoming.method, path, reply);
        return;
      }
      return controlRequest(incoming, surface, path.slice(consoleApiPrefix.length), reply, closing);
    });
  }

  /** A request of the console's page to the API, sent on as a program holding the key would send it. */
  function proxied(incoming: Incoming, target: string): Incoming {
    const { headers, local } = incoming;
    const sent: Record<string, string> = {
      host: headers.host ?? '',
      'user-agent': 'Dataworkz emulator console',
      [consoleMarker]: '1',
    };
    // The emulator's key for a browser on this machine only, and never to a deployment being recorded
    // (which knows nothing of it); a peer elsewhere proved its own credential to the guard.
    const authorization =
      local && parts.mode.kind !== 'record' ? `SSWS ${parts.control.apiKey}` : headers.authorization;
    if (authorization !== undefined) sent.authorization = authorization;
    for (const name of proxiedHeaders) {
      const value = headers[name];
      if (value !== undefined) sent[name] = value;
    }
    if (headers['content-length'] !== undefined) sent['content-length'] = headers['content-length'];
    // What a recording passes on is what the page may send, never the browser's own raw headers.
    const { rawHeaders: _raw, ...rest } = incoming;
    return { ...rest, target, headers: sent };
  }

  /** One of the control operations, after the guard (the console's) or with its own check (`/_emulator/`). */
  async function controlRequest(
    incoming: Incoming,
    surface: Surface,
    name: string,
    reply: Reply,
    closing: Closing,
  ): Promise<void> {
    const { method, headers } = incoming;
    if (surface === 'control') {
      if (method === 'OPTIONS') {
        reply.empty(204, { allow: 'GET, POST, PUT, DELETE, OPTIONS' });
        return;
      }
      const refused = await guard.refusal(incoming, 'control');
      if (refused !== undefined) throw refused;
    }
    const { operation, params } = controlOperation(method, name);
    const value = await operation.run(parts.control, {
      params,
      local: incoming.local,
      json: async () => {
        // The page's own requests send JSON; a form on another site cannot (it sends no such type).
        if (surface === 'console-api' && !(headers['content-type'] ?? '').startsWith('application/json')) {
          throw new HttpError(
            415,
            'Send JSON (content-type: application/json)',
            {},
            'UNSUPPORTED_MEDIA_TYPE',
          );
        }
        const received = await incoming.readBody(limits.maxBodyBytes);
        if (received.refusal) throw received.refusal;
        return parseJsonBody(fromUtf8(received.bytes), limits.maxJsonDepth);
      },
      reply,
      onClose: (listener) => closing.on(listener),
    });
    if (value !== undefined) reply.json(200, value);
  }

  /** An API request (or any other path, which the router answers 404): credentials, limits, faults, the mode. */
  async function apiRequest(incoming: Incoming, path: string, plain: Reply, closing: Closing): Promise<void> {
    const operations = await parts.operations;
    const { mode } = parts;
    const { method, headers, target } = incoming;
    const isApi = path.startsWith('/api/');
    const found = lookupRoute(method, path);
    let reply = plain;
    if (mode.kind === 'record' && isApi) {
      // The deployment judges the credentials and answers every method; faults still apply first.
      if (method !== 'OPTIONS' && (await applyFault(found.operationId, path, reply, closing))) return;
      reply.forwarded(await mode.forward(incoming, (listener) => closing.on(listener)));
      return;
    }
    // Checked first, refused only after faults apply: faults reach callers with any credentials.
    const refusal = await auth.check(headers.authorization).then(
      () => undefined,
      (error: unknown) => error,
    );
    const received = await incoming.readBody(limits.maxBodyBytes);
    const query = target.slice(path.length + 1);
    const heard = () => {
      for (const listener of parts.listeners) {
        const { rawHeaders } = incoming;
        listener.request?.({
          method,
          path,
          query,
          headers,
          rawHeaders,
          body: received.bytes,
          size: received.size,
        });
      }
    };
    if (mode.kind === 'replay' && isApi && method !== 'OPTIONS') {
      if (received.refusal) throw received.refusal;
      // The credentials emulating asks for: code that sends a wrong key fails on replay as it would there.
      if (refusal !== undefined) throw refusal;
      heard();
      const replayed = mode.replay(method, target, fromUtf8(received.bytes), (listener) =>
        closing.on(listener),
      );
      if (replayed.answer) {
        reply.answer(replayed.answer);
        return;
      }
      if (mode.fallback !== 'emulate') {
        reply.json(replayed.miss.status, replayed.miss.body);
        return;
      }
    } else if (refusal === undefined) {
      // Only requests with valid credentials are kept: anyone can send the others, as large as they like.
      heard();
    }
    if (received.refusal) throw received.refusal;
    if (method === 'OPTIONS') {
      reply.empty(204, { allow: 'GET, POST, DELETE, OPTIONS' });
      return;
    }
    const fault = isApi ? faults.take(found.operationId ?? '') : undefined;
    if (fault) {
      const faulted = await answerFault(fault, path, reply, closing);
      if (faulted === undefined) return;
      reply = faulted;
    }
    if (refusal !== undefined) throw refusal;
    if (isApi) parts.rateLimiter().take(headers.authorization ?? '');
    const resolved = found.resolve();
    await operations[resolved.operationId]({
      headers,
      origin: incoming.origin,
      path,
      params: resolved.params,
      query: new Query(query, limits.maxTextLength),
      body: fromUtf8(received.bytes),
      reply,
      onClose: (listener) => closing.on(listener),
    });
  }

  /** Applies the next fault for a recorded operation; true when the fault answered (or dropped) it. */
  async function applyFault(
    operationId: OperationId | undefined,
    path: string,
    reply: Reply,
    closing: Closing,
  ): Promise<boolean> {
    const fault = faults.take(operationId ?? '');
    return fault !== undefined && (await answerFault(fault, path, reply, closing)) === undefined;
  }

  /**
   * A fault's latency, then its answer or its dropped connection (undefined: answered); else the reply
   * through which the operation answers, the fault applied to what it writes.
   */
  async function answerFault(
    fault: NonNullable<ReturnType<FaultList['take']>>,
    path: string,
    reply: Reply,
    closing: Closing,
  ): Promise<Reply | undefined> {
    if (fault.latencyMs) await delay(fault.latencyMs, closing);
    if (fault.drop === 'before-headers') {
      reply.drop();
      return undefined;
    }
    const faulted = reply.withFault(fault);
    if (fault.status !== undefined || fault.body !== undefined) {
      const status = fault.status ?? 200;
      faulted.send(
        status,
        'application/json',
        fault.body ?? JSON.stringify(errorBody(status, 'Injected fault', path, 'INJECTED_FAULT')),
      );
      return undefined;
    }
    return faulted;
  }

  /**
   * One exchange: its request id, its reply, its end, and its failure answered. The service's own
   * (the API, the control routes) are heard by the listeners and carry CORS headers; the console's are
   * neither (its page is same-origin only) and carry the console's headers instead.
   */
  function exchange(
    given: Incoming,
    kind: 'service' | 'console',
    /** Answers the request (its body read through the listeners). */
    run: (incoming: Incoming, reply: Reply, closing: Closing) => void | Promise<void>,
  ): Promise<Answer> {
    let incoming = given;
    const { method, target } = incoming;
    requestCounter += 1;
    const requestId = `req-${requestCounter}`;
    const watches: ExchangeWatch[] = [];
    if (kind === 'service') {
      for (const listener of parts.listeners) {
        const watch = listener.exchange?.(requestId, method, target, incoming.headers, incoming.rawHeaders);
        if (watch) watches.push(watch);
      }
    }
    if (watches.length > 0) {
      incoming = {
        ...given,
        readBody: async (limit) => {
          const received = await given.readBody(limit);
          for (const watch of watches) watch.requestBody(received.bytes, received.size);
          return received;
        },
      };
    }
    const baseHeaders = {
      'x-request-id': requestId,
      ...(kind === 'console' ? consoleHeaders : corsHeaders(parts.cors, method, incoming.headers.origin)),
    };
    const closing = new Closing();
    incoming.onGone(() => closing.close());
    const outlet = new Outlet(closing);
    const reply = new Reply(outlet, baseHeaders);
    const path = pathOf(target);
    const ended = (async () => {
      try {
        await run(incoming, reply, closing);
      } catch (error) {
        answerFailure(reply, method, path, error);
      }
    })()
      .catch((error: unknown) => log.error(`The emulator could not answer ${method} ${path}`, error))
      // A request that ends unanswered (its client left first) settles as a lost connection.
      .finally(() => {
        active.delete(closing);
        if (!outlet.started) outlet.refuse();
      });
    active.set(closing, ended);
    if (watches.length === 0) return outlet.response;
    return outlet.response.then(
      (answer) => watches.reduce((answered, watch) => watch.answered(answered), answer),
      (error: unknown) => {
        for (const watch of watches) watch.dropped();
        throw error;
      },
    );
  }

  /** Answers a request that failed, through a plain reply: the faulted one may be what failed. */
  function answerFailure(reply: Reply, method: string, path: string, error: unknown): void {
    if (reply.finished) {
      reply.drop();
      return;
    }
    const plain = reply.plain();
    if (error instanceof HttpError) {
      plain.json(error.status, errorBody(error.status, error.message, path, error.code), error.headers);
    } else {
      // Unexpected: answer without details (they could carry request data) and keep serving.
      log.error(`The emulator failed to handle ${method} ${path}`, error);
      plain.json(500, errorBody(500, 'The emulator failed to handle the request', path, 'INTERNAL'));
    }
  }

  return {
    handle,
    async closeAll() {
      const ends = [...active];
      for (const [closing] of ends) closing.close();
      await Promise.all(ends.map(([, ended]) => ended));
    },
  };
}

function pathOf(target: string): string {
  const at = target.indexOf('?');
  return at < 0 ? target : target.slice(0, at);
}

/**
 * Waits `ms`, or less if the exchange ends first. The timer holds the process open, as a request in
 * flight to a slow server does: through `createEmulator().fetch` nothing else may (the client's own
 * time-out timer does not), and the process would end with the call unsettled.
 */
function delay(ms: number, closing: Closing): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    closing.on(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
