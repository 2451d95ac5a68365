import type { DataworkzError } from './errors.js';

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Aborts the call (including a pending retry wait) with APIUserAbortError. */
  signal?: AbortSignal | undefined;
  /** Time-out of each attempt in ms, covering the response headers and body. */
  timeout?: number | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
  /** Retries after the first attempt. */
  maxRetries?: number | undefined;
  /**
   * Largest response body, decoded, in bytes: a longer one stops reading at the limit and rejects
   * with ResponseTooLargeError. For `qna.document()`, whose body you read, only this per-call value
   * applies (no default).
   */
  maxResponseBytes?: number | undefined;
  /**
   * Receives the successful HTTP response (status, headers such as `x-request-id`) before the result
   * is returned. Its body belongs to the method: read the result, not the body. Whatever it throws
   * rejects the call as it is, without a retry.
   */
  onResponse?: ((response: Response) => void) | undefined;
  /**
   * Called before each retry of the call (a retryable failure, or a 401 answered with a refreshed
   * token), with the attempt that failed, its error and the wait before the next attempt: a call that
   * succeeded on its third attempt called it twice. Whatever it throws rejects the call as it is.
   */
  onRetry?: ((retry: RetryEvent) => void) | undefined;
}

/** What `onRetry` is told: the attempt that failed (1 for the first), why, and the wait before the next. */
export interface RetryEvent {
  /** The attempt that failed: 1 for the first. */
  attempt: number;
  /** Why it failed. */
  error: DataworkzError;
  /** The wait before the next attempt, in ms. */
  waitMs: number;
}

/** A custom fetch (the `fetch` option): receives each outgoing Request; the global `fetch` fits. */
export type Fetch = (request: Request) => Promise<Response>;
