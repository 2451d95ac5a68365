import { APIConnectionError, APIUserAbortError, DataworkzError } from '@dataworkz/client';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { StreamEventTooLargeError, StreamIdleTimeoutError } from './errors.js';

// The event types whose data is a JSON-RPC response.
const DATA_EVENTS = new Set(['message', 'error']);

export interface EventStreamLimits {
  /** Longest silence allowed between two chunks of the body, in ms; 0 or Infinity for none. */
  idleTimeoutMs: number;
  /** Largest event allowed (its buffered text, in characters). */
  maxEventBytes: number;
  /** Aborted when the caller gives up; a read failing after it is the caller's abort. */
  signal: AbortSignal;
  /** Told of each event skipped (named events such as `ping`, events with empty data), for a debug line. */
  skipped?: (what: string) => void;
}

/**
 * Reads a Server-Sent Events body into the `data` of its events, one chunk of the body at a time:
 * callers take each batch as soon as it is parsed, with no stream or generator in between. Enforces
 * the size cap and the idle time-out, and turns read failures into the client's errors.
 */
export class EventStreamReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #limits: EventStreamLimits;
  readonly #decoder = new TextDecoder();
  readonly #parser: EventSourceParser;
  #ready: string[] = [];
  #failure: DataworkzError | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #done = false;

  constructor(body: ReadableStream<Uint8Array>, limits: EventStreamLimits) {
    this.#reader = body.getReader();
    this.#limits = limits;
    const { maxEventBytes, skipped } = limits;
    this.#parser = createParser({
      maxBufferSize: maxEventBytes,
      onEvent: (event) => {
        // A2A results come as default (`message`) events and the A2A SDK's servers send JSON-RPC
        // errors as `error` events; other types (`ping`, ...) and empty events carry nothing for us.
        if (event.event !== undefined && !DATA_EVENTS.has(event.event)) {
          skipped?.(`an event of type "${event.event}"`);
        } else if (event.data === '') {
          skipped?.('an event with empty data');
        } else if (event.data.length > maxEventBytes) {
          this.#failure ??= new StreamEventTooLargeError(maxEventBytes);
        } else this.#ready.push(event.data);
      },
      onError: (error) => {
        // Unknown fields and bad `retry:` values are ignorable per the SSE standard; an overflow is not.
        if (error.type === 'max-buffer-size-exceeded')
          this.#failure ??= new StreamEventTooLargeError(maxEventBytes);
      },
    });
    // Closing the body on abort is what closes the connection, and stops a pending idle timer.
    if (limits.signal.aborted) this.cancel(limits.signal.reason);
    else limits.signal.addEventListener('abort', () => this.cancel(limits.signal.reason), { once: true });
  }

  /** The data of the events the next chunks complete (at least one), or undefined at the end of the body. */
  async read(): Promise<string[] | undefined> {
    while (!this.#done) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await this.#next();
      } catch (error) {
        throw this.#fail(this.#readFailure(error));
      }
      if (result.done) {
        this.#done = true;
        // One line break completes a last line (a lone CR may await its LF): an event whose last line
        // is whole is dispatched, a fragment cut off mid-line is dropped.
        this.#parser.feed(`${this.#decoder.decode()}\n`);
      } else this.#parser.feed(this.#decoder.decode(result.value, { stream: true }));
      if (this.#failure) throw this.#fail(this.#failure);
      if (this.#ready.length > 0) {
        const ready = this.#ready;
        this.#ready = [];
        return ready;
      }
    }
    return undefined;
  }

  /** Closes the body (and so the connection); pending reads settle. */
  cancel(reason?: unknown): void {
    this.#stopTimer();
    this.#done = true;
    this.#reader.cancel(reason).catch(() => {});
  }

  #next(): Promise<ReadableStreamReadResult<Uint8Array>> {
    const { idleTimeoutMs } = this.#limits;
    if (!(idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs))) return this.#reader.read();
    return new Promise((resolve, reject) => {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        reject(new StreamIdleTimeoutError(idleTimeoutMs));
      }, idleTimeoutMs);
      this.#reader.read().then(
        (result) => {
          this.#stopTimer();
          resolve(result);
        },
        (error: unknown) => {
          this.#stopTimer();
          reject(error);
        },
      );
    });
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #readFailure(error: unknown): DataworkzError {
    if (error instanceof DataworkzError) return error;
    if (this.#limits.signal.aborted) return new APIUserAbortError(undefined, { cause: error });
    return new APIConnectionError('The connection to the agent stream broke off', { cause: error });
  }

  #fail(error: DataworkzError): DataworkzError {
    this.cancel(error);
    return error;
  }
}
