import type { Redaction } from '@dataworkz/redaction';
import { BoundedStore } from '../bounded-store.js';
import type { CapturedBody } from '../capture/body.js';
import { EventReader, eventStreamText, eventText } from '../capture/events.js';
import type { ExchangeCapture } from '../capture/exchange.js';
import { isEventStream } from '../capture/media-type.js';
import { type HeaderList, headerPairs, redactEvent } from '../capture/redact.js';
import { cutText, shownBody } from '../capture/shown.js';
import type { CassetteEntry } from '../cassette/har.js';
import type { Answer } from '../http/answer.js';
import { utf8 } from '../neutral/bytes.js';

/** Where a logged exchange stands. */
type ExchangeState = 'pending' | 'streaming' | 'done' | 'dropped' | 'cut';

/**
 * One request the emulator received and what it answered, as the console's request log shows it:
 * redacted once, as it is captured (no raw header, path or body is kept).
 */
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
  /** The request's body is read (and in the exchange's capture). */
  requestBody(): void;
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

  /** The most bytes of a body the console shows (the capture keeps a margin more, cut once redacted). */
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

  /**
   * Starts an entry from the exchange's capture (made once, by the pipeline, for every surface): its
   * request line and headers now, its body and answer as they come, each as the capture redacted it.
   */
  begin(requestId: string, capture: ExchangeCapture): ExchangeWatch {
    const head = capture.head;
    const started = performance.now();
    const entry: LoggedExchange = {
      id: this.nextId++,
      requestId,
      method: head.method,
      path: head.path,
      query: head.query,
      from: head.headers[consoleMarker] === undefined ? 'program' : 'console',
      startedAt: new Date().toISOString(),
      requestHeaders: withoutMarker(head.headers),
      requestBody: '',
      requestBytes: 0,
      state: 'pending',
      responseHeaders: {},
      responseBody: '',
      responseBytes: 0,
    };
    this.entries.set(entry.id, entry, sizeOf(entry));
    this.emit(entry);
    const max = this.limits.maxRecordedBodyBytes;
    const cap = capture.keptBytes;
    const finish = (state: ExchangeState) => {
      if (entry.state === 'done' || entry.state === 'dropped' || entry.state === 'cut') return;
      entry.state = state;
      entry.durationMs = Math.round((performance.now() - started) * 10) / 10;
      this.entries.resize(entry.id, sizeOf(entry));
      this.emit(entry);
    };
    return {
      requestBody: () => {
        const captured = capture.requestBody;
        if (!captured) return;
        entry.requestBody = shown(captured.body, max);
        entry.requestBytes = captured.bytes;
      },
      answered: (answer) => {
        const list: HeaderList = answer.headerList
          ? headerPairs(answer.headerList)
          : Object.entries(answer.headers);
        const captured = capture.answered(answer.status, list);
        entry.status = captured.status;
        entry.responseHeaders = captured.headers;
        const { body } = answer;
        if (!(body instanceof ReadableStream)) {
          const bytes = typeof body === 'string' ? utf8(body) : (body ?? new Uint8Array());
          entry.responseBody = shown(capture.answerBody(bytes.subarray(0, cap), bytes.length), max);
          entry.responseBytes = bytes.length;
          finish('done');
          return answer;
        }
        entry.state = 'streaming';
        this.emit(entry);
        const { recorded } = answer;
        // A recorded exchange is captured and redacted once, for the cassette: the log shows that record.
        const watch = recorded
          ? recordWatch(entry, recorded, max)
          : isEventStream(captured.type) && !captured.coded
            ? eventsWatch(entry, captured.redaction, max)
            : wholeWatch(entry, cap, (bytes, size) => {
                entry.responseBody = shown(capture.answerBody(bytes, size), max);
              });
        return { ...answer, body: observed(body, entry, watch, finish) };
      },
      dropped: () => finish('dropped'),
    };
  }

  private emit(entry: LoggedExchange): void {
    for (const listener of this.listeners) listener(entry);
  }
}

/** What the log keeps of a streamed body as it passes: each chunk, then its end (settled once kept). */
interface StreamWatch {
  chunk(bytes: Uint8Array): void;
  end(): void | Promise<void>;
}

/**
 * A recorded exchange: nothing read as it passes; once it is over, its bodies as the cassette's entry
 * holds them (captured and redacted there, once), cut to the log's limit.
 */
function recordWatch(
  entry: LoggedExchange,
  recorded: Promise<CassetteEntry | undefined>,
  max: number,
): StreamWatch {
  return {
    chunk: () => {},
    end: async () => {
      const har = await recorded;
      if (!har) return;
      const { postData } = har.request;
      if (postData) entry.requestBody = harShown(postData, har.request.bodySize, max);
      entry.requestBytes = har.request.bodySize;
      const { content } = har.response;
      entry.responseBody = har._events
        ? cutText(eventStreamText(har._events.map(({ time: _, ...event }) => event)), max)
        : harShown(content, content.size, max);
    },
  };
}

/** A cassette entry's body as the page shows it (see `shown`). */
function harShown(
  body: { text?: string; encoding?: string; _sha256?: string; comment?: string },
  size: number,
  max: number,
): string {
  if (body._sha256 !== undefined || body.text === undefined) {
    return `[${size} bytes not shown: ${body.comment ?? 'not recorded'}; SHA-256 ${body._sha256 ?? 'unknown'}]`;
  }
  if (body.encoding === 'base64') return `[${size} bytes not shown: not text]`;
  const start = body.text.trimStart()[0];
  if ((start === '{' || start === '[') && body.text.length > max) {
    return `[${size} bytes of JSON past the console's limit of ${max}: not shown, as its members cannot be checked for secrets]`;
  }
  return cutText(body.text, max);
}

/**
 * An event stream read event by event as it passes (the same parser a browser's rules describe):
 * each event redacted as a whole, its data read as a body, and shown until the limit.
 */
function eventsWatch(entry: LoggedExchange, redaction: Redaction, max: number): StreamWatch {
  const decoder = new TextDecoder();
  const reader = new EventReader((event) => {
    if (entry.responseBody.length >= max) return;
    entry.responseBody = cutText(entry.responseBody + eventText(redactEvent(event, redaction)), max);
  });
  return {
    chunk: (bytes) => reader.feed(decoder.decode(bytes, { stream: true })),
    end: () => reader.feed(decoder.decode()),
  };
}

/** Any other streamed body: its first bytes kept (up to `cap`), captured and redacted once it ends. */
function wholeWatch(
  entry: LoggedExchange,
  cap: number,
  done: (bytes: Uint8Array, size: number) => void,
): StreamWatch {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  return {
    chunk: (bytes) => {
      if (kept >= cap) return;
      const part = bytes.subarray(0, cap - kept);
      chunks.push(part);
      kept += part.length;
    },
    end: () => {
      const bytes = new Uint8Array(kept);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      done(bytes, entry.responseBytes);
    },
  };
}

/** The stream as written, watched as it passes; the entry ends with it. */
function observed(
  body: ReadableStream<Uint8Array>,
  entry: LoggedExchange,
  watch: StreamWatch,
  finish: (state: ExchangeState) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
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
        controller.close();
        await watch.end();
        finish('done');
        return;
      }
      const chunk = next.value;
      entry.responseBytes += chunk.length;
      watch.chunk(chunk);
      controller.enqueue(chunk);
    },
    cancel(reason) {
      finish('cut');
      return reader.cancel(reason);
    },
  });
}

/** A redacted body as the page shows it (see `shownBody`). */
function shown(body: CapturedBody, max: number): string {
  return shownBody(body, max, "the console's limit");
}

/** The headers but the marker of the console's own requests (the page knows them by `from`). */
function withoutMarker(headers: Record<string, string>): Record<string, string> {
  if (headers[consoleMarker] === undefined) return headers;
  const { [consoleMarker]: _, ...rest } = headers;
  return rest;
}

function sizeOf(entry: LoggedExchange): number {
  let bytes = entry.path.length + entry.query.length + entry.requestBody.length + entry.responseBody.length;
  for (const headers of [entry.requestHeaders, entry.responseHeaders]) {
    for (const name in headers) bytes += name.length + (headers[name]?.length ?? 0);
  }
  return bytes + 200;
}
