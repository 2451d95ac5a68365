import createClient, { type Client } from 'openapi-fetch';
import type { BackoffOptions } from './core/backoff.js';
import { Credentials, type TokenProvider } from './core/credentials.js';
import { classifyFailure } from './core/deadline.js';
import { APIUserAbortError, DataworkzError, errorFromResponse } from './core/errors.js';
import { Log, type Logger, type LogLevel, resolveLogLevel } from './core/logger.js';
import { Outgoing } from './core/outgoing.js';
import { checkHeaderRecord, serializePath, serializeQuery } from './core/params.js';
import { scrubError } from './core/redact.js';
import { type Fetch, type SendFetch, Transport } from './core/transport.js';
import type { paths } from './generated/schema.js';
import { Agents } from './resources/agents.js';
import { Qna } from './resources/qna.js';

export interface ClientOptions {
  /** The deployment's address, e.g. `https://app.dataworkz.com`. Default: `DATAWORKZ_BASE_URL`. */
  baseUrl?: string;
  /** An API key, sent as `SSWS <key>`. Default: `DATAWORKZ_API_KEY` (when no token is given). */
  apiKey?: string;
  /** A JWT sent as `Bearer <token>`, or a function returning one (called per request; `refresh` after a 401). */
  token?: string | TokenProvider;
  /** The fetch to use (default: the global one). */
  fetch?: Fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Time-out of each attempt in ms (default 600000: answers can take minutes). */
  timeout?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Delays between retries (default 500 ms doubling up to 8 s, minus up to 25 % jitter). */
  backoff?: BackoffOptions;
  /** `off`, `error`, `warn` (default), `info` or `debug`. Default: `DATAWORKZ_LOG`. */
  logLevel?: LogLevel;
  /** Where log lines go (default: `console`). */
  logger?: Logger;
}

const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_RETRIES = 2;

/** The client for the Dataworkz HTTP API. */
export class Dataworkz {
  /** The base address, without a trailing slash. */
  readonly baseUrl: string;
  readonly agents: Agents;
  readonly qna: Qna;
  /**
   * The typed openapi-fetch client underneath, for calls the methods do not cover. It sends the
   * credential and default headers and follows redirects safely, but neither retries nor throws.
   */
  readonly raw: Client<paths>;
  private readonly transport: Transport;
  private readonly credentials: Credentials;
  private readonly defaultHeaders: Headers;

  constructor(options: ClientOptions = {}) {
    const env = readEnv();
    this.baseUrl = normaliseBaseUrl(options.baseUrl ?? env.DATAWORKZ_BASE_URL);
    const useEnvKey = options.apiKey === undefined && options.token === undefined;
    this.credentials = new Credentials(
      useEnvKey ? env.DATAWORKZ_API_KEY || undefined : options.apiKey,
      options.token,
    );
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    if (!(typeof timeout === 'number' && timeout > 0)) {
      throw new DataworkzError('timeout must be a positive number of milliseconds.');
    }
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new DataworkzError('maxRetries must be a non-negative integer.');
    }
    const log = new Log(resolveLogLevel(options.logLevel, env.DATAWORKZ_LOG), options.logger ?? console);
    const userFetch = options.fetch;
    // Arrows, so a browser's fetch is never called with another `this`.
    const fetchImpl: SendFetch = userFetch
      ? (url, init) => userFetch(new Request(url, init))
      : (url, init) => globalThis.fetch(url, init);
    this.defaultHeaders = checkHeaders(options.headers);
    this.transport = new Transport({
      fetch: fetchImpl,
      credentials: this.credentials,
      timeout,
      maxRetries,
      backoff: options.backoff,
      log,
    });
    this.raw = createClient<paths>({
      baseUrl: this.baseUrl,
      headers: options.headers,
      redirect: 'manual',
      pathSerializer: serializePath,
      querySerializer: serializeQuery,
      fetch: async (request) => this.transport.dispatch(request, await this.credentials.authorization(), 1),
    });
    this.agents = new Agents(this.raw, this.transport);
    this.qna = new Qna(this.raw, this.transport);
  }

  /**
   * A fetch that sends this client's credential and default headers, for calls outside the REST
   * methods (such as the A2A stream). Non-2xx responses reject with the typed APIError; no retries
   * and no time-out: the caller's `init.signal` governs.
   */
  readonly authorizedFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw new APIUserAbortError();
    const headers = new Headers(this.defaultHeaders);
    if (init?.headers) {
      for (const [name, value] of Object.entries(checkHeaderRecord(init.headers))) headers.set(name, value);
    }
    const authorization = await this.credentials.authorization();
    let response: Response;
    try {
      response = await this.transport.dispatch(new Outgoing(input, { ...init, headers }), authorization, 1);
    } catch (error) {
      throw classifyFailure(error, signal, false);
    }
    if (!response.ok) throw await errorFromResponse(response, this.transport.scrubText);
    return response;
  };

  /**
   * Removes every credential this client has sent from an error, in place, and returns it: the
   * message, stack, data fields and cause. The client's own errors are already clean; this is for
   * errors built from what a server sent elsewhere (the A2A stream, say).
   */
  readonly redact = <E extends Error>(error: E): E => {
    scrubError(error, this.credentials.knownSecrets());
    return error;
  };
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
