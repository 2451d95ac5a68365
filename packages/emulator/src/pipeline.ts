import { type CaptureOptions, ExchangeCapture } from './capture/exchange.js';
import type { ExchangeWatch } from './console/exchange-log.js';
import type { Asset } from './console/page.js';
import type { ControlContext } from './control/context.js';
import type { AccessGuard } from './http/access-guard.js';
import type { Answer } from './http/answer.js';
import type { Authenticator } from './http/auth.js';
import type { ReceivedBody } from './http/body.js';
import { Closing } from './http/closing.js';
import { type CorsOptions, corsHeaders } from './http/cors.js';
import { errorBody, HttpError } from './http/errors.js';
import type { Exchange } from './http/exchange.js';
import type { FaultList } from './http/faults.js';
import type { RateLimiter } from './http/rate-limit.js';
import { Outlet, Reply } from './http/reply.js';
import { lookupRoute, type OperationId } from './http/router.js';
import type { Limits } from './limits.js';
import type { Log } from './logger.js';
import { orderOf, runOrder } from './pipeline/api-orders.js';
import type { ApiCall } from './pipeline/api-steps.js';
import { consoleHeaders, consoleRequest, isConsolePath } from './pipeline/console-route.js';
import { controlRequest } from './pipeline/control-route.js';

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
  body: Uint8Array;
  size: number;
  /** The exchange's capture, the one every surface renders (see `ExchangeCapture`). */
  capture: ExchangeCapture;
}

/** What the pipeline's listeners hear: each request with valid credentials, each exchange as it starts. */
export interface PipelineListeners {
  request?(request: ReceivedRequest): void;
  /**
   * Returns what follows the exchange (its body, its answer); not called for the console's own
   * requests. Every listener is handed the same capture of the exchange, and the same one again as
   * `request`'s.
   */
  exchange?(requestId: string, capture: ExchangeCapture): ExchangeWatch;
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
  /** How each exchange is captured and redacted, once, for every listener. */
  capture: CaptureOptions;
}

export interface Pipeline {
  /** Answers one request; rejects with a TypeError when a fault drops the connection before the headers. */
  handle(incoming: Incoming): Promise<Answer>;
  /** Ends every exchange in progress (open streams first of all); settles once each has finished. */
  closeAll(): Promise<void>;
}

const controlPrefix = '/_emulator/';

/**
 * The one path of every request, whichever adapter received it (node:http, or `createEmulator().fetch`):
 *
 * - the console (`console-route.ts`): the guard, then its page, its control operations, or its proxy,
 *   which sends the page's API requests on down the API's path as any caller's;
 * - the control routes (`control-route.ts`): the guard, then the operation;
 * - the API, and every other path (`api-orders.ts`): the order of named steps of the mode in force,
 *   emulate, replay or record, written there once each;
 * - around each: one exchange (its request id, its headers, its end, its failure answered), which the
 *   listeners (the requests kept, the console's request log) hear as it goes, each handed the same
 *   capture of it (captured and redacted once, whatever the mode).
 */
export function createPipeline(parts: PipelineParts): Pipeline {
  const { log } = parts;
  // Each exchange in progress, with the promise of its end.
  const active = new Map<Closing, Promise<void>>();
  let requestCounter = 0;
  const consoleRoute = {
    handle,
    exchange: (incoming: Incoming, run: Parameters<typeof exchange>[2]) => exchange(incoming, 'console', run),
  };

  function handle(incoming: Incoming): Promise<Answer> {
    const path = pathOf(incoming.target);
    if (isConsolePath(parts, path)) return consoleRequest(parts, consoleRoute, incoming, path);
    return exchange(incoming, 'service', (watched, reply, closing, capture) =>
      path.startsWith(controlPrefix)
        ? controlRequest(parts, watched, 'control', path.slice(controlPrefix.length), reply, closing)
        : apiRequest(watched, path, reply, closing, capture),
    );
  }

  /** An API request (or any other path, which the router answers 404), in its mode's order. */
  async function apiRequest(
    incoming: Incoming,
    path: string,
    reply: Reply,
    closing: Closing,
    capture: ExchangeCapture | undefined,
  ): Promise<void> {
    // The service's exchanges all have one (only the console's own go without).
    if (!capture) throw new Error('An API request was not captured');
    const operations = await parts.operations;
    const call: ApiCall = {
      parts,
      operations,
      incoming,
      path,
      query: incoming.target.slice(path.length + 1),
      route: lookupRoute(incoming.method, path),
      isApi: path.startsWith('/api/'),
      closing,
      reply,
      capture,
    };
    await runOrder(call, orderOf(parts.mode, call));
  }

  /**
   * One exchange: its request id, its reply, its end, and its failure answered. The service's own
   * (the API, the control routes) are heard by the listeners and carry CORS headers; the console's are
   * neither (its page is same-origin only) and carry the console's headers instead.
   */
  function exchange(
    given: Incoming,
    kind: 'service' | 'console',
    /** Answers the request (its body read through the capture, which the listeners hear of). */
    run: (
      incoming: Incoming,
      reply: Reply,
      closing: Closing,
      capture: ExchangeCapture | undefined,
    ) => void | Promise<void>,
  ): Promise<Answer> {
    let incoming = given;
    const { method, target } = incoming;
    requestCounter += 1;
    const requestId = `req-${requestCounter}`;
    const watches: ExchangeWatch[] = [];
    // One capture of the exchange, whatever the mode: every listener is handed this one.
    const capture =
      kind === 'service'
        ? new ExchangeCapture(parts.capture, method, target, incoming.headers, incoming.rawHeaders)
        : undefined;
    if (capture) {
      for (const listener of parts.listeners) {
        const watch = listener.exchange?.(requestId, capture);
        if (watch) watches.push(watch);
      }
      incoming = {
        ...given,
        readBody: async (limit) => {
          const received = await given.readBody(limit);
          capture.requestBodyRead(received.bytes, received.size);
          for (const watch of watches) watch.requestBody();
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
        await run(incoming, reply, closing, capture);
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
