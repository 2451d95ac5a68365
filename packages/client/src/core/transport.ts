import { type BackoffOptions, retryDelay } from './backoff.js';
import type { Credentials } from './credentials.js';
import { classifyFailure, Deadline, sleep } from './deadline.js';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  boundErrorBody,
  DataworkzError,
  InvalidParameterError,
} from './errors.js';
import type { Log } from './logger.js';
import { Outgoing } from './outgoing.js';
import { checkHeaderRecord } from './params.js';
import { redactHeaders, redactUrl, scrubError, scrubSecrets, scrubValue } from './redact.js';

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Aborts the call (including a pending retry wait) with APIUserAbortError. */
  signal?: AbortSignal;
  /** Time-out of each attempt in ms, covering the response headers and body. */
  timeout?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /**
   * Receives the successful HTTP response (status, headers such as `x-request-id`) before the result
   * is returned. Its body belongs to the method: read the result, not the body.
   */
  onResponse?: (response: Response) => void;
}

/** A custom fetch (the `fetch` option): receives each outgoing Request; the global `fetch` fits. */
export type Fetch = (request: Request) => Promise<Response>;

/** How the pipeline calls fetch: with a URL and init, so no Request is built twice per call. */
export type SendFetch = (url: string, init: RequestInit) => Promise<Response>;

/** What one attempt hands to openapi-fetch. */
export interface AttemptInit {
  /** Absent when the attempt has neither a time-out nor a caller's signal. */
  signal: AbortSignal | undefined;
  headers: Record<string, string> | undefined;
  fetch: (request: Request) => Promise<Response>;
  Request: typeof Request;
}

/** What openapi-fetch resolves to (any `parseAs`). */
export interface AttemptResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

export interface TransportConfig {
  fetch: SendFetch;
  credentials: Credentials;
  timeout: number;
  maxRetries: number;
  backoff: BackoffOptions | undefined;
  log: Log;
}

const NO_OPTIONS: RequestOptions = {};
const MAX_REDIRECTS = 20;
// Never forwarded to another origin by a redirect.
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
const RETRYABLE_STATUS = new Set([408, 409, 429]);

/** The request pipeline: credentials, redirects, time-outs, retries, typed errors and logging. */
export class Transport {
  private readonly config: TransportConfig;

  constructor(config: TransportConfig) {
    this.config = config;
  }

  /**
   * Runs `send` (one openapi-fetch call) until it succeeds or retries run out. `read` turns a 2xx
   * result into the method's value; it runs inside the attempt's time-out. With `keepDeadline`,
   * `read` takes over the deadline (for bodies the caller reads later) and must clear it.
   */
  async execute<T>(
    send: (init: AttemptInit) => Promise<AttemptResult>,
    read: (result: AttemptResult, deadline: Deadline) => T,
    options: RequestOptions = NO_OPTIONS,
    keepDeadline = false,
  ): Promise<T> {
    const { credentials, log } = this.config;
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    const timeout = options.timeout ?? this.config.timeout;
    const signal = options.signal;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new InvalidParameterError('maxRetries', 'maxRetries must be a non-negative integer.');
    }
    if (!(typeof timeout === 'number' && timeout > 0)) {
      throw new InvalidParameterError('timeout', 'timeout must be a positive number of milliseconds.');
    }
    if (options.headers !== undefined) checkHeaderRecord(options.headers);
    let authorization = credentials.fixedAuthorization;
    let refreshed = false;
    let retries = 0;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw withAttempts(classifyFailure(signal.reason, signal, false), attempt - 1);
      if (authorization === undefined) authorization = await credentials.authorization();
      const sentAuthorization = authorization;
      const deadline = new Deadline(timeout, signal);
      let failure: DataworkzError;
      try {
        const result = await send({
          signal: deadline.signal,
          headers: options.headers,
          fetch: (request) => this.dispatch(request, sentAuthorization, attempt),
          Request: Outgoing as unknown as typeof Request,
        });
        if (result.response.ok) {
          options.onResponse?.(result.response);
          const value = read(result, deadline);
          if (!keepDeadline) deadline.clear();
          return value;
        }
        failure = this.apiError(result.response, result.error);
      } catch (error) {
        failure = deadline.classify(error);
      }
      deadline.clear();
      failure.attempts = attempt;
      if (failure instanceof APIError) scrubError(failure, credentials.knownSecrets());

      if (failure instanceof AuthenticationError && credentials.refreshable && !refreshed) {
        refreshed = true;
        authorization = await credentials.authorization(true);
        if (authorization !== sentAuthorization) {
          if (log.enabled('info'))
            log.info('401 received; retrying once with a refreshed token', { attempt });
          continue;
        }
      } else if (credentials.fixedAuthorization === undefined) {
        authorization = undefined;
      }

      if (retries >= maxRetries || !isRetryable(failure)) throw failure;
      const headers = failure instanceof APIError ? failure.headers : undefined;
      const wait = Math.round(retryDelay(retries, headers, this.config.backoff));
      retries++;
      // Guarded, so no message or data object is built when info lines are dropped.
      if (log.enabled('info')) {
        log.info(`retrying in ${wait} ms after ${describe(failure)}`, {
          attempt,
          retry: retries,
          waitMs: wait,
        });
      }
      try {
        await sleep(wait, signal);
      } catch (error) {
        throw withAttempts(error as DataworkzError, attempt);
      }
    }
  }

  /**
   * One HTTP exchange with the credential set; follows redirects itself so the credential never
   * reaches another origin. Logs a debug line per exchange.
   */
  async dispatch(input: Request | Outgoing, authorization: string, attempt: number): Promise<Response> {
    const request = input instanceof Outgoing ? input : await Outgoing.from(input);
    request.headers.set('authorization', authorization);
    const { log } = this.config;
    if (!log.enabled('debug')) return this.follow(request);
    const started = performance.now();
    const url = redactUrl(request.url);
    try {
      const response = await this.follow(request);
      const durationMs = Math.round(performance.now() - started);
      log.debug(`${request.method} ${url} ${response.status} (attempt ${attempt}, ${durationMs} ms)`, {
        method: request.method,
        url,
        status: response.status,
        attempt,
        durationMs,
        headers: redactHeaders(request.headers),
      });
      return response;
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      log.debug(`${request.method} ${url} failed (attempt ${attempt}, ${durationMs} ms)`, {
        method: request.method,
        url,
        attempt,
        durationMs,
        error: error instanceof Error ? error.name : typeof error,
      });
      throw error;
    }
  }

  /** The typed error for a non-2xx response whose body openapi-fetch already read and parsed. */
  apiError(response: Response, body: unknown): APIError {
    return APIError.generate(
      response.status,
      // openapi-fetch has read the whole body; the error keeps at most 64 KiB of its text.
      scrubValue(boundErrorBody(body), this.config.credentials.knownSecrets()),
      response.headers,
    );
  }

  /** Removes any credential this client sent from text the server returned. */
  scrubText = (text: string): string => scrubSecrets(text, this.config.credentials.knownSecrets());

  private async follow(request: Outgoing): Promise<Response> {
    const fetchImpl = this.config.fetch;
    const { signal } = request;
    let { url, method, headers, body } = request;
    for (let hop = 0; ; hop++) {
      const init: RequestInit & { duplex?: 'half' } = { method, headers, body, signal, redirect: 'manual' };
      // A streamed body needs half-duplex and cannot be replayed on a redirect.
      if (body instanceof ReadableStream) init.duplex = 'half';
      const response = await fetchImpl(url, init);
      if (response.type === 'opaqueredirect') {
        // Browsers hide manual redirects; their own following drops credentials across origins.
        return fetchImpl(url, { ...init, redirect: 'follow' });
      }
      const location = isRedirect(response.status) ? response.headers.get('location') : null;
      if (location === null) return response;
      const keepsBody = response.status === 307 || response.status === 308;
      if (keepsBody && body instanceof ReadableStream) return response;
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new DataworkzError(`Too many redirects (more than ${MAX_REDIRECTS}).`);
      const target = new URL(location, url);
      headers = new Headers(headers);
      if (target.origin !== new URL(url).origin) {
        for (const name of CREDENTIAL_HEADERS) headers.delete(name);
      }
      if (!keepsBody) {
        headers.delete('content-type');
        headers.delete('content-length');
        body = null;
        if (method !== 'HEAD') method = 'GET';
      }
      url = target.href;
    }
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** Whether a failed attempt may be retried: connection problems, 408/409/429/5xx, or `x-should-retry`. */
function isRetryable(error: DataworkzError): boolean {
  if (error instanceof APIConnectionError) return true;
  if (!(error instanceof APIError) || error.status < 300) return false;
  const hint = error.headers.get('x-should-retry');
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return RETRYABLE_STATUS.has(error.status) || error.status >= 500;
}

function withAttempts(error: DataworkzError, attempts: number): DataworkzError {
  error.attempts = attempts;
  return error;
}

function describe(error: DataworkzError): string {
  return error instanceof APIError ? `status ${error.status}` : error.name;
}
