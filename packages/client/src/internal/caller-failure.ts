/**
 * An error thrown by the caller's own code (an `onResponse` callback, a custom logger) while a request
 * was in flight. The pipeline carries it past its own error handling and rethrows `error` as it was:
 * it is the caller's bug, not a connection problem, so it is neither wrapped nor retried.
 */
export class CallerFailure {
  constructor(readonly error: unknown) {}
}

/** Runs the caller's `callback`, marking anything it throws as the caller's own. */
export function callerCode<T>(callback: () => T): T {
  try {
    return callback();
  } catch (error) {
    throw new CallerFailure(error);
  }
}
