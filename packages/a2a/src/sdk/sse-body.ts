import { APIConnectionError, APIUserAbortError, DataworkzError } from '@dataworkz/client';
import { StreamIdleTimeoutError } from '../errors.js';
import { sseRepair } from './sse-repair.js';

export interface SseBodyLimits {
  /** Longest silence allowed while a chunk is awaited, in ms; 0 or Infinity for none. */
  idleTimeoutMs: number;
  /** Largest event allowed, in bytes. */
  maxEventBytes: number;
  /** The request's signal: a read failing after it fired is the caller's abort, not a broken connection. */
  signal: AbortSignal;
  /** Told of each event skipped (named events such as `ping`, events with empty data), for a debug line. */
  skipped?: ((what: string) => void) | undefined;
}

/**
 * The body of an event stream as the SDK's client can read it: its chunks as `sseRepair` hands them
 * on, a silence over `idleTimeoutMs` and an event over `maxEventBytes` failing it with typed errors,
 * read failures as the client's errors. Aborting the signal or cancelling the body closes the
 * connection (the SDK 0.3.14 releases its reader instead of cancelling it).
 */
export function sseBody(
  upstream: ReadableStream<Uint8Array>,
  limits: SseBodyLimits,
): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const { idleTimeoutMs, signal } = limits;
  const timed = idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs);
  let emit: (bytes: Uint8Array) => void = () => {};
  const repair = sseRepair(limits.maxEventBytes, (bytes) => emit(bytes), limits.skipped);
  // One timer at a time, moved on only when it fires: a timer per read would cost every chunk one.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let readingSince = 0;
  let idle: StreamIdleTimeoutError | undefined;
  let failure: DataworkzError | undefined;
  const watch = (ms: number) => {
    timer = setTimeout(() => {
      timer = undefined;
      if (readingSince === 0) return;
      const waited = performance.now() - readingSince;
      if (waited < idleTimeoutMs) return watch(idleTimeoutMs - waited);
      idle = new StreamIdleTimeoutError(idleTimeoutMs);
      reader.cancel(idle).catch(() => {});
    }, ms);
  };
  const onAbort = () => reader.cancel(signal.reason).catch(() => {});
  // The signal outlives this body (a run's resumed attempts share it): the listener goes with the body.
  const stop = () => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const fail = (error: unknown): DataworkzError => {
    const typed =
      error instanceof DataworkzError
        ? error
        : signal.aborted
          ? new APIUserAbortError(undefined, { cause: error })
          : new APIConnectionError('The connection to the agent stream broke off', { cause: error });
    stop();
    reader.cancel(typed).catch(() => {});
    return typed;
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (failure) throw failure;
        let emitted = false;
        emit = (bytes) => {
          emitted = true;
          controller.enqueue(bytes);
        };
        while (!emitted) {
          let result: ReadableStreamReadResult<Uint8Array>;
          try {
            if (timed) {
              readingSince = performance.now();
              if (timer === undefined) watch(idleTimeoutMs);
            }
            result = await reader.read();
            readingSince = 0;
            if (idle) throw idle;
            repair(result.value);
          } catch (error) {
            // What came before the failure is read first (an error now would discard it).
            failure = fail(error);
            if (emitted) return;
            throw failure;
          }
          if (result.done) {
            stop();
            controller.close();
            return;
          }
        }
      },
      cancel(reason) {
        stop();
        return reader.cancel(reason).catch(() => {});
      },
    },
    // Nothing is read ahead of the consumer: the idle time-out measures the server's silence only.
    { highWaterMark: 0 },
  );
}
