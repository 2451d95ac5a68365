import { APIConnectionError, APIUserAbortError, DataworkzError } from '@dataworkz/client';
import { createParser } from 'eventsource-parser';
import { StreamEventTooLargeError, StreamIdleTimeoutError } from './errors.js';

export interface EventStreamLimits {
  /** Longest silence allowed between two chunks of the body, in ms; 0 or Infinity for none. */
  idleTimeoutMs: number;
  /** Largest event allowed (its buffered text, in characters). */
  maxEventBytes: number;
  /** Aborted when the caller gives up; a read failing after it is the caller's abort. */
  signal: AbortSignal;
}

const LINE_BREAKS = /\r\n|\r|\n/g;

/**
 * Re-frames a Server-Sent Events body so that every event is one `data:` line followed by a blank
 * line: the SDK's parser keeps only the last `data:` line of an event and buffers without bound.
 * Multi-line data is joined with spaces, which is lossless for JSON (newlines there are whitespace).
 * Enforces the size cap and the idle time-out, and turns read failures into the client's errors.
 */
export function reframeEventStream(
  body: ReadableStream<Uint8Array>,
  limits: EventStreamLimits,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let ready: string[] = [];
  let failure: DataworkzError | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const parser = createParser({
    maxBufferSize: limits.maxEventBytes,
    onEvent(event) {
      if (event.data.length > limits.maxEventBytes)
        failure ??= new StreamEventTooLargeError(limits.maxEventBytes);
      else ready.push(`data: ${event.data.replace(LINE_BREAKS, ' ')}\n\n`);
    },
    onError(error) {
      // Unknown fields and bad `retry:` values are ignorable per the SSE standard; an overflow is not.
      if (error.type === 'max-buffer-size-exceeded')
        failure ??= new StreamEventTooLargeError(limits.maxEventBytes);
    },
  });

  const stopTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  const read = (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    const { idleTimeoutMs } = limits;
    if (!(idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs))) return reader.read();
    return new Promise((resolve, reject) => {
      timer = setTimeout(() => {
        timer = undefined;
        reject(new StreamIdleTimeoutError(idleTimeoutMs));
      }, idleTimeoutMs);
      reader.read().then(
        (result) => {
          stopTimer();
          resolve(result);
        },
        (error: unknown) => {
          stopTimer();
          reject(error);
        },
      );
    });
  };

  // The SDK only releases its reader when a run ends: cancel the body here, so neither the connection
  // nor a pending idle timer outlives the run.
  limits.signal.addEventListener(
    'abort',
    () => {
      stopTimer();
      reader.cancel(limits.signal.reason).catch(() => {});
    },
    { once: true },
  );

  const readFailure = (error: unknown): DataworkzError => {
    if (error instanceof DataworkzError) return error;
    if (limits.signal.aborted) return new APIUserAbortError(undefined, { cause: error });
    return new APIConnectionError('The connection to the agent stream broke off', { cause: error });
  };

  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, error: DataworkzError) => {
    stopTimer();
    controller.error(error);
    reader.cancel(error).catch(() => {});
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await read();
        } catch (error) {
          fail(controller, readFailure(error));
          return;
        }
        // At the end one line break completes a last line (a lone CR may await its LF): an event whose
        // last line is whole is dispatched, a fragment cut off mid-line is dropped.
        parser.feed(result.done ? `${decoder.decode()}\n` : decoder.decode(result.value, { stream: true }));
        if (failure) {
          fail(controller, failure);
          return;
        }
        if (ready.length > 0) {
          controller.enqueue(encoder.encode(ready.join('')));
          ready = [];
        }
        if (result.done) {
          controller.close();
          return;
        }
        if (controller.desiredSize !== null && controller.desiredSize <= 0) return;
      }
    },
    cancel(reason) {
      stopTimer();
      return reader.cancel(reason);
    },
  });
}
