import { context as otelContext } from '@opentelemetry/api';
import createClient, { type Client } from 'openapi-fetch';
import type { BackoffOptions } from './core/backoff.js';
import { limitBody } from './core/bounded-body.js';
import {
  DataworkzError,
  InvalidParameterError,
  MAX_ERROR_BODY_CHARS,
  ResponseTooLargeError,
} from './core/errors.js';
import type { Logger, LogLevel } from './core/logger.js';
import { checkHeaderRecord, serializePath, serializeQuery } from './core/params.js';
import type { Fetch } from './core/request-options.js';
import type { TokenProvider } from './core/token-provider.js';
import type { paths } from './generated/schema.js';
import { guardBody, streamBody } from './internal/body.js';
import { Credentials } from './internal/credentials.js';
import { dispatch } from './internal/dispatch.js';
import { Log, resolveLogLevel } from './internal/log.js';
import { checkMaxResponseBytes, checkMaxRetries, checkTimeout } from './internal/option-checks.js';
import { Outgoing } from './internal/outgoing.js';
import { scrubAny } from './internal/redact.js';
import type { SendFetch } from './internal/redirects.js';
import { captureContentFromEnv } from './internal/telemetry.js';
import { Transport } from './internal/transport.js';
import { Agents } from './resources/agents.js';
import { Qna } from './resources/qna.js';

/** How a `Dataworkz` client reaches the service: its address, credential, time-outs and retries. */
export interface ClientOptions {
  /** The deployment's address, e.g. `https://app.dataworkz.com`. Default: `DATAWORKZ_BASE_URL`. */
  baseUrl?: string | undefined;
  /** An API key, sent as `SSWS <key>`. Default: `DATAWORKZ_API_KEY` (when no token is given). */
  apiKey?: string | undefined;
  /** A JWT sent as `Bearer <token>`, or a function returning one (called per request; `refresh` after a 401). */
  token?: string | TokenProvider | undefined;
  /** The fetch to use (default: the global one). */
  fetch?: Fetch | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Time-out of each attempt in ms (default 600000: answers can take minutes). */
  timeout?: number | undefined;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number | undefined;
  /** Largest response body the client reads for you, decoded, in bytes (default 64 MiB). */
  maxResponseBytes?: number | undefined;
  /** Delays between retries (default 500 ms doubling up to 8 s, minus up to 25 % jitter). */
  backoff?: BackoffOptions | undefined;
  /** `off`, `error`, `warn` (default), `info` or `debug`. Default: `DATAWORKZ_LOG`. */
  logLevel?: LogLevel | undefined;
  /** Where log lines go (default: `console`). */
  logger?: Logger | undefined;
  /**
   * Allow an `apiKey` in a browser page, where anyone who opens the page can read it (default false:
   * refused). Prefer `token` with a short-lived token issued to the signed-in user, or calling the API
   * from your server.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * Record question and query text, answers and agent replies on OpenTelemetry spans (default
   * false: spans carry ids, timings and statuses only). Default: `true` when
   * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`. The text may be personal data: your
   * tracing backend keeps it.
   */
  captureContent?: boolean | undefined;
}

/** A RequestInit for `authorizedFetch`, plus how long to wait and how much to read. */
export interface AuthorizedInit extends RequestInit {
  /**
   * Time-out in ms (default: the client's `timeout`). It covers the headers and the body, or with
   * `stream` only the wait for the headers.
   */
  timeout?: number | undefined;
  /**
   * The body is a long-lived stream the caller reads at its own pace (Server-Sent Events): once the
   * headers arrive, no time-out and no size cap apply; the caller's signal still closes it.
   */
  stream?: boolean | undefined;
  /** Largest body, decoded (default: the client's `maxResponseBytes`); past it the body fails with ResponseTooLargeError. */
  maxResponseBytes?: number | undefined;
  /** What error messages call this request (default: `METHOD /path`). */
  operation?: string | undefined;
}

const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** The client for the Dataworkz HTTP API. */
export class Dataworkz {
  /** The base address, without a trailing slash. */
  readonly baseUrl: string;
  /** Agents: list them, resolve one by name, read its A2A card and LLMs (runs stream through `@dataworkz/a2a`). */
  readonly agents: Agents;
  /** QnA systems: list them, search, answer, read documents, filters and question history. */
  readonly qna: Qna;
  /**
   * The typed openapi-fetch client underneath, for calls the methods do not cover. It sends the
   * credential and default headers and follows redirects safely, but neither retries nor throws.
   *
   * Its type is openapi-fetch's own `Client`, from the exact openapi-fetch version this package
   * depends on (pinned, and released before its 1.0): a release of this package that moves to another
   * openapi-fetch version may change `raw`'s types as openapi-fetch changed them, in a minor release.
   * The methods above are the stable surface.
   */
  readonly raw: Client<paths>;
  /** The client's logger: lines below its `logLevel` are dropped, the rest prefixed `[dataworkz]`. */
  readonly logger: Logger;
  /** Whether spans record question text and answers (the `captureContent` option). */
  readonly captureContent: boolean;
  readonly #transport: Transport;
  readonly #credentials: Credentials;
  readonly #defaultHeaders: Headers;
  // Which authorization each response of authorizedFetch was sent with, so `redact` can remove it.
  readonly #sentWith = new WeakMap<Response, string>();

  constructor(options: ClientOptions = {}) {
    const env = readEnv();
    this.baseUrl = normaliseBaseUrl(options.baseUrl ?? env.DATAWORKZ_BASE_URL);
    const useEnvKey = options.apiKey === undefined && options.token === undefined;
    const apiKey = useEnvKey ? env.DATAWORKZ_API_KEY || undefined : options.apiKey;
    if (apiKey !== undefined && options.dangerouslyAllowBrowser !== true && isBrowser()) {
      throw new DataworkzError(
        'An API key in a browser page can be read by anyone who opens the page, so it is refused. ' +
          'Use the token option with a short-lived token issued to the signed-in user, or call the API ' +
          'from your server (a proxy that adds the key). For a local demo, pass dangerouslyAllowBrowser: true.',
      );
    }
    this.#credentials = new Credentials(apiKey, options.token);
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    checkTimeout(timeout);
    checkMaxRetries(maxRetries);
    checkMaxResponseBytes(maxResponseBytes);
    const log = new Log(resolveLogLevel(options.logLevel, env.DATAWORKZ_LOG), options.logger ?? console);
    this.logger = log;
    const userFetch = options.fetch;
    // Arrows, so a browser's fetch is never called with another `this`.
    const fetchImpl: SendFetch = userFetch
      ? (url, init) => userFetch(new Request(url, init))
      : (url, init) => globalThis.fetch(url, init);
    this.#defaultHeaders = checkHeaders(options.headers);
    this.captureContent = options.captureContent ?? captureContentFromEnv(env);
    this.#transport = new Transport({
      captureContent: this.captureContent,
      fetch: fetchImpl,
      credentials: this.#credentials,
      origin: new URL(this.baseUrl).origin,
      timeout,
      maxRetries,
      maxResponseBytes,
      backoff: options.backoff,
      log,
    });
    this.raw = createClient<paths>({
      baseUrl: this.baseUrl,
      ...(options.headers ? { headers: options.headers } : {}),
      redirect: 'manual',
      pathSerializer: serializePath,
      querySerializer: serializeQuery,
      fetch: async (request) => {
        const { authorization } = await this.#credentials.grant();
        const response = await dispatch(this.#transport, request, authorization, 1, otelContext.active());
        // openapi-fetch reads bodies whole: cap what it can read (an error body is cut, not failed).
        return response.ok
          ? limitBody(
              response,
              maxResponseBytes,
              () => new ResponseTooLargeError(response.status, response.headers, maxResponseBytes),
            )
          : limitBody(response, MAX_ERROR_BODY_CHARS);
      },
    });
    const context = { raw: this.raw, transport: this.#transport };
    this.agents = new Agents(context);
    this.qna = new Qna(context);
  }

  /**
   * A fetch that sends this client's credential and default headers, for calls outside the REST
   * methods (such as the A2A stream). Non-2xx responses reject with the typed APIError (a 401 with a
   * token function is retried once with a refreshed token); there are no other retries. The
   * client's `timeout` and `maxResponseBytes` apply unless `init` says otherwise (see `AuthorizedInit`).
   */
  readonly authorizedFetch = async (input: string | URL, init: AuthorizedInit = {}): Promise<Response> => {
    const { timeout, stream, maxResponseBytes, operation, ...requestInit } = init;
    const url = absoluteUrl(input);
    const headers = new Headers(this.#defaultHeaders);
    if (requestInit.headers) {
      for (const [name, value] of Object.entries(checkHeaderRecord(requestInit.headers))) {
        headers.set(name, value);
      }
    }
    const signal = requestInit.signal ?? undefined;
    const href = url.href;
    const method = (requestInit.method ?? 'GET').toUpperCase();
    const { data } = await this.#transport.execute(
      operation ?? `${method} ${url.pathname}`,
      async (attemptInit) => {
        const request = new Outgoing(href, { ...requestInit, headers, signal: attemptInit.signal ?? null });
        return { response: await attemptInit.fetch(request) };
      },
      (result, attempt) => {
        const response = stream
          ? streamBody(result.response, attempt.deadline)
          : guardBody(result.response, attempt.deadline, attempt.maxResponseBytes);
        this.#sentWith.set(response, attempt.authorization);
        return response;
      },
      { signal, timeout, maxResponseBytes, maxRetries: 0 },
      {
        method,
        keepDeadline: true,
        covers: stream ? 'headers' : 'response',
        origin: url.origin,
        replayable: isReplayable(requestInit.body),
      },
    );
    return data;
  };

  /**
   * Removes every credential this client has sent from `value` and returns it: an error in place
   * (message, stack, data fields, headers, cause), text or parsed JSON as a scrubbed copy. The
   * client's own errors are already clean; this is for what a server sent elsewhere (the A2A stream,
   * say). Given the Response `authorizedFetch` returned, it also removes the exact credential that
   * request sent, however many tokens the client has minted since.
   */
  readonly redact = <T>(value: T, response?: Response): T => {
    const authorization = response === undefined ? undefined : this.#sentWith.get(response);
    return scrubAny(value, this.#credentials.secretsFor(authorization));
  };
}

function absoluteUrl(input: string | URL): URL {
  try {
    return new URL(input);
  } catch {
    throw new InvalidParameterError('input', 'authorizedFetch needs an absolute http(s) URL.');
  }
}

/** Whether a request body can be sent a second time (a stream is consumed by the first send). */
function isReplayable(body: RequestInit['body']): boolean {
  return !(typeof ReadableStream !== 'undefined' && body instanceof ReadableStream);
}

/** A page in a browser (not a server runtime, a worker or an edge function). */
function isBrowser(): boolean {
  const scope = globalThis as { window?: { document?: unknown }; navigator?: unknown };
  return (
    typeof scope.window === 'object' &&
    typeof scope.window?.document === 'object' &&
    scope.navigator !== undefined
  );
}

function readEnv(): Record<string, string | undefined> {
  // Not every runtime has `process`; browsers and edge runtimes pass options instead.
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

function normaliseBaseUrl(value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new DataworkzError(
      'Missing baseUrl: pass baseUrl or set the DATAWORKZ_BASE_URL environment variable.',
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DataworkzError('baseUrl must be an absolute http(s) URL, such as https://app.dataworkz.com.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DataworkzError('baseUrl must use http or https.');
  }
  if (url.username !== '' || url.password !== '') {
    // Credentials in a URL end up in logs and are refused by fetch; the message must not repeat them.
    throw new DataworkzError('baseUrl must not contain a user name or password; use apiKey or token.');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new DataworkzError('baseUrl must not contain a query or fragment.');
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function checkHeaders(headers: Record<string, string> | undefined): Headers {
  return new Headers(headers === undefined ? undefined : checkHeaderRecord(headers));
}
