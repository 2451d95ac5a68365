import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  DataworkzError,
} from '../core/errors.js';
import type { TimeoutBucket, TimeoutBuckets } from './timeout-buckets.js';

// setTimeout cannot wait longer than this; a longer time-out means "none".
const MAX_TIMER_MS = 2_147_483_647;

/** What a failure message names: the operation, where it went, and the time-out in force. */
export interface CallSite {
  /** The method the caller called, e.g. `qna.search`. */
  operation: string;
  /** The origin of the request's URL (never its path or query, which may carry values). */
  origin: string;
  /** The time-out in ms. */
  timeoutMs: number;
  /** What the time-out covers, for the message: `headers` when only the wait for them. */
  covers?: 'headers' | 'response' | undefined;
}

/**
 * One attempt's abort signal: fires when the caller's signal aborts or the time-out passes, and
 * remembers which, so a failure can be reported as the right typed error. Without a time-out the
 * caller's signal (or none) is used as it is: every signal handed to fetch costs a listener,
 * a WeakRef and a finalizer inside it, so none is made that could never fire.
 */
export class Deadline {
  readonly signal: AbortSignal | undefined;
  private readonly controller: AbortController | undefined;
  private readonly user: AbortSignal | undefined;
  private readonly site: CallSite;
  private readonly bucket: TimeoutBucket | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timedOut = false;
  private onUserAbort: (() => void) | undefined;
  private left = false;

  /**
   * With `buckets`, a call without a signal of its own whose time-out covers the whole response
   * shares its time-out signal with calls that started close by (see TimeoutBucket).
   */
  constructor(site: CallSite, user: AbortSignal | undefined, buckets?: TimeoutBuckets) {
    this.user = user;
    this.site = site;
    if (site.timeoutMs >= MAX_TIMER_MS) {
      this.signal = user;
      return;
    }
    if (buckets !== undefined && user === undefined && site.covers !== 'headers') {
      this.bucket = buckets.join(site.timeoutMs);
      this.signal = this.bucket.signal;
      return;
    }
    const controller = new AbortController();
    this.controller = controller;
    this.signal = controller.signal;
    if (user) {
      if (user.aborted) controller.abort(user.reason);
      else {
        this.onUserAbort = () => controller.abort(user.reason);
        user.addEventListener('abort', this.onUserAbort, { once: true });
      }
    }
    // The deadline is passed as an argument: no closure per attempt.
    this.timer = setTimeout(Deadline.expire, site.timeoutMs, this);
    // A pending socket keeps the process alive; the timer alone must not.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private static expire(deadline: Deadline): void {
    deadline.timedOut = true;
    deadline.controller?.abort(timeoutError(deadline.site));
  }

  /** The typed error for a failure that happened while this deadline was in force. */
  classify(error: unknown): DataworkzError {
    const timedOut = this.timedOut || this.bucket?.signal.aborted === true;
    return classifyFailure(error, this.user, timedOut, this.site);
  }

  /** Stops the time-out but keeps following the caller's signal (for a stream that outlives it). */
  stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The call is over: its timer stops (or it leaves its bucket). Safe to call more than once. */
  clear(): void {
    if (this.bucket !== undefined) {
      if (!this.left) {
        this.left = true;
        this.bucket.leave();
      }
      return;
    }
    this.stopTimer();
    if (this.onUserAbort !== undefined) this.user?.removeEventListener('abort', this.onUserAbort);
  }
}

function timeoutError(site: CallSite, cause?: unknown): APIConnectionTimeoutError {
  const what = site.covers === 'headers' ? 'no response headers' : 'no complete response';
  return new APIConnectionTimeoutError(
    `${site.operation}: ${what} from ${site.origin} within ${site.timeoutMs} ms.`,
    cause === undefined ? undefined : { cause },
  );
}

/** Maps whatever fetch or a body read threw to this package's errors, naming the call. */
export function classifyFailure(
  error: unknown,
  user: AbortSignal | undefined,
  timedOut: boolean,
  site: CallSite,
): DataworkzError {
  if (timedOut) return timeoutError(site, error);
  if (user?.aborted) return new APIUserAbortError(`${site.operation} was aborted.`, { cause: error });
  if (error instanceof DataworkzError) return error;
  return new APIConnectionError(
    `${site.operation}: connection to ${site.origin} failed (${causeCode(error)}).`,
    { cause: error },
  );
}

/**
 * The most telling word about a network failure: the first error code in its cause chain (undici
 * puts `ECONNREFUSED`, `ECONNRESET`, `UND_ERR_SOCKET` there), else the innermost message.
 */
function causeCode(error: unknown): string {
  let message = 'no response';
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    // A message naming a URL could carry query values; the error's name says enough then.
    if (current.message) message = current.message.includes('://') ? current.name : current.message;
    const errors = (current as { errors?: unknown }).errors;
    const first = Array.isArray(errors) ? errors[0] : undefined;
    current = first instanceof Error ? first : current.cause;
  }
  return message.length > 100 ? `${message.slice(0, 100)}...` : message;
}

/** Waits `ms`, or rejects with APIUserAbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined, operation: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new APIUserAbortError(`${operation} was aborted.`));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new APIUserAbortError(`${operation} was aborted.`));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
