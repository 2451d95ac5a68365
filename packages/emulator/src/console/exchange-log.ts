import { SCRUB_MARGIN_BYTES } from '@dataworkz/redaction';
import { BoundedStore } from '../bounded-store.js';
import type { Answer } from '../http/answer.js';
import { fromUtf8, utf8 } from '../neutral/bytes.js';

/** Where a logged exchange stands. */
type ExchangeState = 'pending' | 'streaming' | 'done' | 'dropped' | 'cut';

/** One request the emulator received and what it answered, as the console's request log shows it. */
export interface LoggedExchange {
  /** The log's own sequence number, for the page to ask for one entry. */
  id: number;
  /** The `x-request-id` the answer carried. */
  requestId: string;
  method: string;
  path: string;
  query: string;
  /** Whether the console page sent it (through its own endpoints) or another program. */
  from: 'console' | 'program';
  startedAt: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  requestBytes: number;
  state: ExchangeState;
  status?: number;
  /** From the request's arrival to the end of the answer's body (or of its stream). */
  durationMs?: number;
  responseHeaders: Record<string, string>;
  /** The body as text, up to the recorded-body limit (a stream's events as they were sent). */
  responseBody: string;
  responseBytes: number;
}

/** What the service tells the log of one exchange, in order. */
export interface ExchangeWatch {
  requestBody(bytes: Uint8Array, size: number): void;
  /** The answer's status and headers are decided; returns the answer to write (a stream is observed as it goes). */
  answered(answer: Answer): Answer;
  /** The connection was dropped before any answer. */
  dropped(): void;
}

export interface ExchangeLogLimits {
  maxRecordedRequests: number;
  maxRecordedBytes: number;
  maxRecordedBodyBytes: number;
}

type Listener = (exchange: LoggedExchange) => void;

/** The header the console's own endpoints set on the requests they make for the page. */
export const consoleMarker = 'x-dataworkz-console';

/**
 * Every request the service answers, with its answer, bounded by count and bytes as the recorded
 * requests are: the oldest go first, and an entry larger than the whole byte limit is not kept (see
 * `BoundedStore`); an entry is counted again as its answer grows. Listeners hear of each entry as it
 * starts and as it ends, kept or not.
 */
export class ExchangeLog {
  private readonly entries: BoundedStore<number, LoggedExchange>;
  private nextId = 1;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly limits: ExchangeLogLimits) {
    this.entries = new BoundedStore({
      maxEntries: limits.maxRecordedRequests,
      maxBytes: limits.maxRecordedBytes,
    });
  }

  /** The most bytes of a body the console shows; the log keeps a margin more, cut once redacted. */
  get maxBodyBytes(): number {
    return this.limits.maxRecordedBodyBytes;
  }

  /** Newest first. */
  list(): LoggedExchange[] {
    return this.entries.values().reverse();
  }

  get(id: number): LoggedExchange | undefined {
    return this.entries.get(id);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Calls `listener` with each new or changed entry until the returned function is called. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  begin(requestId: string, method: string, target: string, headers: Record<string, string>): ExchangeWatch {
    const at = target.indexOf('?');
    const { [consoleMarker]: marker, ...requestHeaders } = headers;
    const started = performance.now();
    const entry: LoggedExchange = {
      id: this.nextId++,
      requestId,
      method,
      path: at < 0 ? target : target.slice(0, at),
      query: at < 0 ? '' : target.slice(at + 1),
      from: marker === undefined ? 'program' : 'console',
      startedAt: new Date().toISOString(),
      requestHeaders,
      requestBody: '',
      requestBytes: 0,
      state: 'pending',
      responseHeaders: {},
      responseBody: '',
      responseBytes: 0,
    };
    this.entries.set(entry.id, entry, sizeOf(entry));
    this.emit(entry);
    // Kept past the limit by a margin, so a secret the cut would split is still whole when redacted.
    const cap = this.limits.maxRecordedBodyBytes + SCRUB_MARGIN_BYTES;
    const finish = (state: ExchangeState) => {
      if (entry.state === 'done' || entry.state === 'dropped' || entry.state === 'cut') return;
      entry.state = state;
      entry.durationMs = Math.round((performance.now() - started) * 10) / 10;
      this.entries.resize(entry.id, sizeOf(entry));
      this.emit(entry);
    };
    return {
      requestBody: (bytes, size) => {
        entry.requestBody = fromUtf8(bytes.subarray(0, cap));
        entry.requestBytes = size;
      },
      answered: (answer) => {
        entry.status = answer.status;
        entry.responseHeaders = { ...answer.headers };
        const { body } = answer;
        if (!(body instanceof ReadableStream)) {
          const bytes = typeof body === 'string' ? utf8(body) : (body ?? new Uint8Array());
          entry.responseBody = fromUtf8(bytes.subarray(0, cap));
          entry.responseBytes = bytes.length;
          finish('done');
          return answer;
        }
        entry.state = 'streaming';
        this.emit(entry);
        return { ...answer, body: observed(body, entry, cap, finish) };
      },
      dropped: () => finish('dropped'),
    };
  }

  private emit(entry: LoggedExchange): void {
    for (const listener of this.listeners) listener(entry);
  }
}

/** The stream as written, its text kept (up to `cap` bytes) as it passes; the entry ends with it. */
function observed(
  body: ReadableStream<Uint8Array>,
  entry: LoggedExchange,
  cap: number,
  finish: (state: ExchangeState) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let kept = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        finish('cut');
        controller.error(error);
        return;
      }
      if (next.done) {
        entry.responseBody += decoder.decode();
        finish('done');
        controller.close();
        return;
      }
      const chunk = next.value;
      entry.responseBytes += chunk.length;
      if (kept < cap) {
        const part = chunk.subarray(0, cap - kept);
        kept += part.length;
        entry.responseBody += decoder.decode(part, { stream: true });
      }
      controller.enqueue(chunk);
    },
    cancel(reason) {
      finish('cut');
      return reader.cancel(reason);
    },
  });
}

function sizeOf(entry: LoggedExchange): number {
  let bytes = entry.path.length + entry.query.length + entry.requestBody.length + entry.responseBody.length;
  for (const headers of [entry.requestHeaders, entry.responseHeaders]) {
    for (const name in headers) bytes += name.length + (headers[name]?.length ?? 0);
  }
  return bytes + 200;
}
