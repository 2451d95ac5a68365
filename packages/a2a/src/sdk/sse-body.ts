import { APIConnectionError, APIUserAbortError, DataworkzError } from '@dataworkz/client';
import { StreamIdleTimeoutError } from '../errors.js';
import { sseRepair } from './sse-repair.js';

export interface SseBodyLimits {
  /** Longest silence allowed while a chunk is awaited, in ms; 0 or Infinity for none. */
  idleTimeoutMs: number;
  maxEventBytes: number;
  /** The request's signal: a read failing after it fired is the caller's abort, not a broken connection. */
  signal: AbortSignal;
  /** Told of each event skipped (named events such as `ping`, events with empty data), for a debug line. */
  skipped?: ((what: string) => void) | undefined;
}

/**
 * An event stream's body as the SDK can read it (see `sseRepair`), with an idle time-out. Aborting closes
 * the connection: the SDK 0.3.14 only releases its reader. Nothing is read ahead of the consumer.
 */
export function sseBody(body: ReadableStream<Uint8Array>, limits: SseBodyLimits): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const { idleTimeoutMs: idleMs, signal } = limits;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let emitted = false;
  const emit = (bytes: Uint8Array) => {
    emitted = true;
    controller?.enqueue(bytes);
  };
  const repair = sseRepair(limits.maxEventBytes, emit, limits.skipped ?? (() => {}));
  // One timer, moved on only when it fires: a timer per read would cost every chunk one.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let readingSince = 0;
  let failure: DataworkzError | undefined;
  const watch = (ms: number) => {
    timer = setTimeout(() => {
      const waited = readingSince === 0 ? 0 : performance.now() - readingSince;
      if (waited < idleMs) return watch(idleMs - waited);
      failure = new StreamIdleTimeoutError(idleMs);
      reader.cancel(failure).catch(() => {});
    }, ms);
  };
  if (idleMs > 0 && Number.isFinite(idleMs)) watch(idleMs);
  // The signal outlives this body (a run's resumed attempts share it): the listener goes with the body.
  const close = (reason: unknown) => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    return reader.cancel(reason).catch(() => {});
  };
  const onAbort = () => close(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  return new ReadableStream<Uint8Array>(
    {
      async pull(pulled) {
        controller = pulled;
        emitted = false;
        if (failure) throw failure;
        while (!emitted) {
          let result: ReadableStreamReadResult<Uint8Array>;
          try {
            readingSince = performance.now();
            result = await reader.read();
            readingSince = 0;
            if (failure) throw failure;
            repair(result.value);
          } catch (error) {
            failure =
              error instanceof DataworkzError
                ? error
                : signal.aborted
                  ? new APIUserAbortError(undefined, { cause: error })
                  : new APIConnectionError('The connection to the agent stream broke off', { cause: error });
            close(failure);
            // What came before the failure is read first: an error now would discard it.
            if (emitted) return;
            throw failure;
          }
          if (result.done) {
            close(undefined);
            controller.close();
            return;
          }
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );
}
