import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  DataworkzError,
} from './errors.js';

// setTimeout cannot wait longer than this; a longer time-out means "none".
const MAX_TIMER_MS = 2_147_483_647;

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
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timedOut = false;
  private onUserAbort: (() => void) | undefined;

  constructor(timeoutMs: number, user: AbortSignal | undefined) {
    this.user = user;
    if (timeoutMs >= MAX_TIMER_MS) {
      this.signal = user;
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
    this.timer = setTimeout(Deadline.expire, timeoutMs, this);
    // A pending socket keeps the process alive; the timer alone must not.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private static expire(deadline: Deadline): void {
    deadline.timedOut = true;
    deadline.controller?.abort(new APIConnectionTimeoutError());
  }

  /** The typed error for a failure that happened while this deadline was in force. */
  classify(error: unknown): DataworkzError {
    return classifyFailure(error, this.user, this.timedOut);
  }

  clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.onUserAbort !== undefined) this.user?.removeEventListener('abort', this.onUserAbort);
  }
}

/** Maps whatever fetch or a body read threw to this package's errors. */
export function classifyFailure(
  error: unknown,
  user: AbortSignal | undefined,
  timedOut: boolean,
): DataworkzError {
  if (timedOut) return new APIConnectionTimeoutError(undefined, { cause: error });
  if (user?.aborted) return new APIUserAbortError(undefined, { cause: error });
  if (error instanceof DataworkzError) return error;
  return new APIConnectionError(undefined, { cause: error });
}

/** Waits `ms`, or rejects with APIUserAbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new APIUserAbortError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
