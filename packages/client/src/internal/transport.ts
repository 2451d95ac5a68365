import type { WithResponse } from '../core/api-promise.js';
import { type BackoffOptions, retryDelay } from '../core/backoff.js';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  type DataworkzError,
  errorFromResponse,
  findRequestId,
  type Redactor,
} from '../core/errors.js';
import type { RequestOptions } from '../core/request-options.js';
import { CallerFailure, callerCode } from './caller-failure.js';
import type { Credentials, Grant } from './credentials.js';
import { type CallSite, classifyFailure, Deadline, sleep } from './deadline.js';
import { dispatch, type Exchange } from './dispatch.js';
import type { Log } from './log.js';
import { checkCallOptions } from './option-checks.js';
import { Outgoing } from './outgoing.js';
import { scrubAny } from './redact.js';
import type { SendFetch } from './redirects.js';
import { CallTrace, type CallTraceInfo, type CallTraceSite, serverAttributes } from './telemetry.js';
import { TimeoutBuckets } from './timeout-buckets.js';

/** What one attempt hands to openapi-fetch. */
export interface AttemptInit {
  /** Absent when the attempt has neither a time-out nor a caller's signal. */
  signal?: AbortSignal;
  headers?: Record<string, string>;
  fetch: (request: Request | Outgoing) => Promise<Response>;
  Request: typeof Request;
}

/** How a call differs from a REST method's (the default): what `authorizedFetch` sets. */
export interface CallPlan {
  /** `read` takes over the deadline: the caller reads the body later, still under the time-out. */
  keepDeadline?: boolean;
  /** What the time-out covers, for messages: `headers` for a stream the caller reads at its pace. */
  covers?: 'headers' | 'response' | undefined;
  /** The origin error messages name, when the URL is not under the client's base URL. */
  origin?: string;
  /** False when the body cannot be sent twice (a stream): no second attempt after a 401. */
  replayable?: boolean;
  /** The HTTP method, for telemetry (default GET). */
  method?: string;
  /** What the call's span says about it. */
  trace?: CallTraceInfo | undefined;
  /** The answer text of a result, recorded on the span only when content capture is on. */
  output?: ((data: unknown) => string | undefined) | undefined;
}

/** What openapi-fetch resolves to (any `parseAs`). */
export interface AttemptResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** What reading a successful response may use. */
export interface Attempt {
  /** The attempt's time-out and signal; a reader that keeps the deadline must clear it. */
  deadline: Deadline;
  /** Removes the credential this attempt sent (and every other known one) from server text. */
  redact: Redactor;
  /** The body limit in force, in bytes. */
  maxResponseBytes: number;
  /** The per-call `maxResponseBytes`, when one was given. */
  callMaxResponseBytes: number | undefined;
  /** The `Authorization` value this attempt sent. */
  authorization: string;
}

export interface TransportConfig {
  fetch: SendFetch;
  credentials: Credentials;
  /** The origin requests go to, for error messages. */
  origin: string;
  timeout: number;
  maxRetries: number;
  maxResponseBytes: number;
  backoff: BackoffOptions | undefined;
  log: Log;
  /** Record question text and answers on spans (off by default). */
  captureContent: boolean;
}

const NO_OPTIONS: RequestOptions = {};
const DEFAULT_PLAN: CallPlan = {};
const RETRYABLE_STATUS = new Set([408, 409, 429]);

/** The request pipeline: credentials, redirects, time-outs, retries, typed errors and logging. */
export class Transport implements Exchange {
  readonly config: TransportConfig;
  readonly fetch: SendFetch;
  readonly log: Log;
  readonly #buckets = new TimeoutBuckets();
  readonly #server: CallTraceSite['server'];

  constructor(config: TransportConfig) {
    this.config = config;
    this.fetch = config.fetch;
    this.log = config.log;
    this.#server = serverAttributes(new URL(config.origin));
  }

  /**
   * Runs `send` (one HTTP exchange, through openapi-fetch or `authorizedFetch`) until it succeeds or
   * retries run out. `read` turns a 2xx result into the method's value; it runs inside the attempt's
   * time-out. With `plan.keepDeadline`, `read` takes over the deadline (for bodies the caller reads
   * later) and must clear it.
   */
  async execute<T>(
    operation: string,
    send: (init: AttemptInit) => Promise<AttemptResult>,
    read: (result: AttemptResult, attempt: Attempt) => T | Promise<T>,
    options: RequestOptions = NO_OPTIONS,
    plan: CallPlan = DEFAULT_PLAN,
  ): Promise<WithResponse<T>> {
    // The client's own values were checked when it was made; only a call's overrides need it.
    if (options !== NO_OPTIONS) checkCallOptions(options, operation);
    const timeout = options.timeout ?? this.config.timeout;
    const site: CallSite = {
      operation,
      origin: plan.origin ?? this.config.origin,
      timeoutMs: timeout,
      covers: plan.covers,
    };
    const callTrace = new CallTrace(
      {
        operation,
        method: plan.method ?? 'GET',
        server: plan.origin === undefined ? this.#server : serverAttributes(new URL(plan.origin)),
        captureContent: this.config.captureContent,
      },
      plan.trace,
    );
    try {
      const result = await this.#attempts(operation, send, read, options, plan, site, callTrace);
      callTrace.succeeded(result.response.status, callTrace.attempts, plan.output?.(result.data));
      return result;
    } catch (error) {
      callTrace.failed(error, callTrace.attempts);
      throw error;
    }
  }

  /** The attempts of one call: see `execute`. */
  async #attempts<T>(
    operation: string,
    send: (init: AttemptInit) => Promise<AttemptResult>,
    read: (result: AttemptResult, attempt: Attempt) => T | Promise<T>,
    options: RequestOptions,
    plan: CallPlan,
    site: CallSite,
    callTrace: CallTrace,
  ): Promise<WithResponse<T>> {
    const { credentials, log } = this.config;
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    const callMaxResponseBytes = options.maxResponseBytes;
    const maxResponseBytes = callMaxResponseBytes ?? this.config.maxResponseBytes;
    const signal = options.signal;
    const fixed = credentials.fixedAuthorization;
    let grant: Grant | undefined = fixed === undefined ? undefined : { authorization: fixed, generation: 0 };
    let refreshed = false;
    let retries = 0;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted)
        throw withAttempts(classifyFailure(signal.reason, signal, false, site), attempt - 1);
      grant ??= await credentials.grant();
      const sent = grant;
      const redact = this.redactorFor(sent.authorization);
      const deadline = new Deadline(site, signal, this.#buckets);
      // A non-2xx response, its body unread: the pipeline reads it itself, bounded.
      let refused: Response | undefined;
      let failure: DataworkzError;
      try {
        const init: AttemptInit = {
          fetch: async (request) => {
            callTrace.attempt();
            let response: Response;
            try {
              response = await dispatch(this, request, sent.authorization, attempt, callTrace.context);
            } catch (error) {
              callTrace.attemptEnded(undefined, error);
              throw error;
            }
            callTrace.attemptEnded(response.status);
            if (response.ok) return response;
            refused = response;
            // openapi-fetch would read the whole body of an error response; it gets an empty one.
            return new Response(null, { status: response.status, headers: response.headers });
          },
          Request: Outgoing as unknown as typeof Request,
        };
        if (deadline.signal) init.signal = deadline.signal;
        if (options.headers) init.headers = options.headers;
        const result = await send(init);
        if (refused === undefined) {
          const { onResponse } = options;
          if (onResponse) {
            try {
              callerCode(() => onResponse(result.response));
            } catch (error) {
              result.response.body?.cancel().catch(() => {});
              throw error;
            }
          }
          const data = await read(result, {
            deadline,
            redact,
            maxResponseBytes,
            callMaxResponseBytes,
            authorization: sent.authorization,
          });
          if (!plan.keepDeadline) deadline.clear();
          // A method whose result is the response itself (`qna.document`) hands over that copy.
          const response = data instanceof Response ? data : result.response;
          return { data, response, requestId: findRequestId(response.headers) };
        }
        failure = await errorFromResponse(refused, redact);
      } catch (error) {
        if (error instanceof CallerFailure) {
          deadline.clear();
          throw error.error;
        }
        failure = redact(deadline.classify(error));
      }
      deadline.clear();
      failure.attempts = attempt;

      if (
        failure instanceof AuthenticationError &&
        credentials.refreshable &&
        !refreshed &&
        plan.replayable !== false
      ) {
        refreshed = true;
        const authorization = await credentials.refresh(sent);
        if (authorization !== sent.authorization) {
          grant = { authorization, generation: sent.generation + 1 };
          callTrace.refreshed();
          if (log.enabled('info'))
            log.info(`${operation}: 401 received; retrying once with a refreshed token`, { attempt });
          options.onRetry?.({ attempt, error: failure, waitMs: 0 });
          continue;
        }
      }
      if (fixed === undefined) grant = undefined;

      if (retries >= maxRetries || !isRetryable(failure)) throw failure;
      const headers = failure instanceof APIError ? failure.headers : undefined;
      const wait = Math.round(retryDelay(retries, headers, this.config.backoff));
      retries++;
      callTrace.retry(attempt, describe(failure), wait);
      // Guarded, so no message or data object is built when info lines are dropped.
      if (log.enabled('info')) {
        log.info(`${operation}: retrying in ${wait} ms after ${describe(failure)}`, {
          attempt,
          retry: retries,
          waitMs: wait,
        });
      }
      options.onRetry?.({ attempt, error: failure, waitMs: wait });
      try {
        await sleep(wait, signal, operation);
      } catch (error) {
        throw withAttempts(error as DataworkzError, attempt);
      }
    }
  }

  /** Removes the credential `authorization` carries, and every other one the client knows, from a value. */
  redactorFor(authorization: string | undefined): Redactor {
    // The secrets are looked up when something is redacted: most attempts never redact anything.
    const { credentials } = this.config;
    return (value) => scrubAny(value, credentials.secretsFor(authorization));
  }
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
