import { APIConnectionError, APIUserAbortError, DataworkzError } from '@dataworkz/client';
import { createParser } from 'eventsource-parser';
import { StreamEventTooLargeError, StreamIdleTimeoutError } from '../errors.js';
import { checkPlain } from './sse-check.js';

// The event types whose data is a JSON-RPC response: default events, and the `error` events the A2A
// SDK's own servers send JSON-RPC errors as.
const DATA_EVENTS = new Set(['message', 'error']);
// An unfinished event longer than this is framed by the parser rather than carried from chunk to chunk.
const LONG_EVENT_BYTES = 64 * 1024;

export interface SseBodyLimits {
  /** Longest silence allowed between two chunks of the body, in ms; 0 or Infinity for none. */
  idleTimeoutMs: number;
  /** Largest event allowed (its buffered text, in characters). */
  maxEventBytes: number;
  /** The request's signal: a read failing after it fired is the caller's abort, not a broken connection. */
  signal: AbortSignal;
  /** Told of each event skipped (named events such as `ping`, events with empty data), for a debug line. */
  skipped?: ((what: string) => void) | undefined;
}

/**
 * The body of an event stream as the SDK's client can read it. The SDK's own parser (0.3.14) trims
 * lines, keeps only the last `data:` line of an event, splits on LF alone, buffers without bound and
 * hands every event's data to its JSON-RPC reader whatever the event's type; it also releases its
 * reader instead of cancelling it.
 *
 * Whole events the SDK reads right (one `data:` line each, as the service and the SDK's servers
 * write them) pass through untouched, without a copy; the bytes of an event not yet whole wait for the
 * next chunk. From the first event it would misread on, the body is framed by `eventsource-parser`,
 * as the SSE standard says, and passed on one event per `data:` line: named events other than
 * `message` and `error` and empty events are dropped, multi-line data is joined on one line (a line
 * break in JSON text can only stand between tokens, so a space means the same). Either way, an event
 * over `maxEventBytes` and a silence over `idleTimeoutMs` fail the stream with typed errors, read
 * failures become the client's errors, and cancelling closes the connection.
 */
export function sseBody(
  upstream: ReadableStream<Uint8Array>,
  limits: SseBodyLimits,
): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const { maxEventBytes, idleTimeoutMs, signal, skipped } = limits;
  const timed = idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs);
  let out = '';
  let failure: DataworkzError | undefined;
  /** Events are being passed through as they came; false once one needed framing. */
  let plain = true;
  /** The start of an event not yet whole, waiting for the rest (plain mode). */
  let tail: Uint8Array | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const parser = createParser({
    maxBufferSize: maxEventBytes,
    onEvent(event) {
      if (event.event !== undefined && !DATA_EVENTS.has(event.event)) {
        skipped?.(`an event of type "${event.event}"`);
      } else if (event.data === '') {
        skipped?.('an event with empty data');
      } else if (event.data.length > maxEventBytes) {
        failure ??= new StreamEventTooLargeError(maxEventBytes);
      } else {
        const data = event.data.includes('\n') ? event.data.replaceAll('\n', ' ') : event.data;
        out += `data: ${data}\n\n`;
      }
    },
    onError(error) {
      // Unknown fields and bad `retry:` values are ignorable per the SSE standard; an overflow is not.
      if (error.type === 'max-buffer-size-exceeded') failure ??= new StreamEventTooLargeError(maxEventBytes);
    },
  });

  const stopTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const read = (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    if (!timed) return reader.read();
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
  const fail = (error: unknown): DataworkzError => {
    const typed =
      error instanceof DataworkzError
        ? error
        : signal.aborted
          ? new APIUserAbortError(undefined, { cause: error })
          : new APIConnectionError('The connection to the agent stream broke off', { cause: error });
    detach();
    reader.cancel(typed).catch(() => {});
    return typed;
  };

  // Cancelling the body on abort is what closes the connection and settles a pending read (fetch's
  // own abort does not always reach a read already waiting), which stops its idle timer.
  const onAbort = () => {
    stopTimer();
    reader.cancel(signal.reason).catch(() => {});
  };
  // The signal outlives this body (a run's resumed attempts share it): the listener goes with the body.
  const detach = () => signal.removeEventListener('abort', onAbort);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          let result: ReadableStreamReadResult<Uint8Array>;
          try {
            result = await read();
          } catch (error) {
            throw fail(error);
          }
          if (plain && !result.done) {
            const chunk = tail ? concat(tail, result.value) : result.value;
            const checked = checkPlain(chunk, maxEventBytes);
            // A long event is gathered by the parser, whose buffer grows without copying it all again.
            if (!checked.needsFraming && chunk.length - checked.plainUntil <= LONG_EVENT_BYTES) {
              tail = checked.plainUntil < chunk.length ? chunk.slice(checked.plainUntil) : undefined;
              if (checked.plainUntil === 0) continue;
              controller.enqueue(chunk.subarray(0, checked.plainUntil));
              return;
            }
            // The whole events before this one go through as they are; the parser starts at an event's start.
            plain = false;
            tail = undefined;
            if (checked.plainUntil > 0) controller.enqueue(chunk.subarray(0, checked.plainUntil));
            parser.feed(decoder.decode(chunk.subarray(checked.plainUntil), { stream: true }));
          } else if (result.done) {
            if (tail) parser.feed(decoder.decode(tail, { stream: true }));
            tail = undefined;
            // One line break completes a last line: an event whose last line is whole is dispatched
            // (the SDK reads an event without its blank line too), a fragment cut off mid-line is dropped.
            parser.feed(`${decoder.decode()}\n`);
          } else parser.feed(decoder.decode(result.value, { stream: true }));
          if (failure) throw fail(failure);
          if (out !== '') {
            controller.enqueue(encoder.encode(out));
            out = '';
            if (!result.done) return;
          }
          if (result.done) {
            detach();
            controller.close();
            return;
          }
        }
      },
      cancel(reason) {
        stopTimer();
        detach();
        return reader.cancel(reason).catch(() => {});
      },
    },
    // Nothing is read ahead of the consumer: the idle time-out measures the server's silence only.
    { highWaterMark: 0 },
  );
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
