import { type Redaction, SCRUB_MARGIN_BYTES } from '@dataworkz/redaction';
import { BoundedStore } from '../bounded-store.js';
import { type CapturedBody, type ContentDecoder, captureBody } from '../capture/body.js';
import { EventReader, eventStreamText, eventText } from '../capture/events.js';
import { isEventStream, mediaTypeOf } from '../capture/media-type.js';
import {
  bodyText,
  exchangeRedaction,
  type HeaderList,
  headerPairs,
  headerRecordOf,
  redactBody,
  redactEvent,
  redactHeaderList,
} from '../capture/redact.js';
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

export interface ExchangeLogOptions {
  /** The emulator's own secrets (its keys, its JWT secret): redacted wherever they show up. */
  secrets: readonly string[];
  /** How this runtime decodes a body's content coding (a deployment's gzip, while recording). */
  decode?: ContentDecoder | undefined;
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

  constructor(
    private readonly limits: ExchangeLogLimits,
    private readonly options: ExchangeLogOptions = { secrets: [] },
  ) {
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

  /**
   * Starts an entry: the request line and headers (`rawHeaders` as sent, repeats kept) captured and
   * redacted now, its body and answer as they come, each redacted by the policy set up for it.
   */
  begin(
    requestId: string,
    method: string,
    target: string,
    headers: Record<string, string>,
    rawHeaders?: readonly string[],
  ): ExchangeWatch {
    const at = target.indexOf('?');
    const path = at < 0 ? target : target.slice(0, at);
    const query = at < 0 ? '' : target.slice(at + 1);
    const sent = (rawHeaders ? headerPairs(rawHeaders) : Object.entries(headers)).filter(
      ([name]) => name.toLowerCase() !== consoleMarker,
    );
    const { secrets, decode } = this.options;
    const redaction = exchangeRedaction(secrets, sent, query);
    const started = performance.now();
    const entry: LoggedExchange = {
      id: this.nextId++,
      requestId,
      method,
      path: redaction.text(path),
      query: query === '' ? '' : redaction.url(`?${query}`).slice(1),
      from: headers[consoleMarker] === undefined ? 'program' : 'console',
      startedAt: new Date().toISOString(),
      requestHeaders: headerRecordOf(redactHeaderList(sent, redaction)),
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
    // Kept past the limit by a margin, so a secret the cut would split is still whole when redacted.
    const cap = max + SCRUB_MARGIN_BYTES;
    const finish = (state: ExchangeState) => {
      if (entry.state === 'done' || entry.state === 'dropped' || entry.state === 'cut') return;
      entry.state = state;
      entry.durationMs = Math.round((performance.now() - started) * 10) / 10;
      this.entries.resize(entry.id, sizeOf(entry));
      this.emit(entry);
    };
    const requestType = mediaTypeOf(headers['content-type']);
    return {
      requestBody: (bytes, size) => {
        const body = captureBody({
          bytes: bytes.subarray(0, cap),
          size,
          type: requestType,
          contentEncoding: headers['content-encoding'],
          decode,
        });
        entry.requestBody = shown(redactBody(body, redaction), max);
        entry.requestBytes = size;
      },
      answered: (answer) => {
        const list: HeaderList = answer.headerList
          ? headerPairs(answer.headerList)
          : Object.entries(answer.headers);
        // The cookies the answer sets are secrets too.
        const answerRedaction = exchangeRedaction(secrets, sent, query, list);
        entry.status = answer.status;
        entry.responseHeaders = headerRecordOf(redactHeaderList(list, answerRedaction));
        const record = headerRecordOf(list);
        const type = mediaTypeOf(record['content-type']);
        const capture = (bytes: Uint8Array, size: number) =>
          captureBody({ bytes, size, type, contentEncoding: record['content-encoding'], decode });
        const { body } = answer;
        if (!(body instanceof ReadableStream)) {
          const bytes = typeof body === 'string' ? utf8(body) : (body ?? new Uint8Array());
          entry.responseBody = shown(
            redactBody(capture(bytes.subarray(0, cap), bytes.length), answerRedaction),
            max,
          );
          entry.responseBytes = bytes.length;
          finish('done');
          return answer;
        }
        entry.state = 'streaming';
        this.emit(entry);
        const coded = (record['content-encoding'] ?? '').trim() !== '';
        const { recorded } = answer;
        // A recorded exchange is captured and redacted once, for the cassette: the log shows that record.
        const watch = recorded
          ? recordWatch(entry, recorded, max)
          : isEventStream(type) && !coded
            ? eventsWatch(entry, answerRedaction, max)
            : wholeWatch(entry, cap, (bytes, size) => {
                entry.responseBody = shown(redactBody(capture(bytes, size), answerRedaction), max);
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
        ? cut(eventStreamText(har._events.map(({ time: _, ...event }) => event)), max)
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
  return cut(body.text, max);
}

/**
 * An event stream read event by event as it passes (the same parser a browser's rules describe):
 * each event redacted as a whole, its data read as a body, and shown until the limit.
 */
function eventsWatch(entry: LoggedExchange, redaction: Redaction, max: number): StreamWatch {
  const decoder = new TextDecoder();
  const reader = new EventReader((event) => {
    if (entry.responseBody.length >= max) return;
    entry.responseBody = cut(entry.responseBody + eventText(redactEvent(event, redaction)), max);
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

/**
 * A redacted body as the page shows it, cut to the limit. JSON cut by the limit no longer parses, so
 * its members cannot be judged by name: it is not shown, only its size; nor is a body the redaction
 * cannot read (not text, an unknown charset), which only its size and SHA-256 stand for.
 */
function shown(body: CapturedBody, max: number): string {
  if (body.kind === 'unreadable') {
    return `[${body.size} bytes not shown: ${body.why}; SHA-256 ${body.sha256}]`;
  }
  if (body.kind === 'text' && body.json && (body.cut || body.size > max)) {
    return `[${body.size} bytes of JSON past the console's limit of ${max}: not shown, as its members cannot be checked for secrets]`;
  }
  return cut(bodyText(body), max);
}

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

function sizeOf(entry: LoggedExchange): number {
  let bytes = entry.path.length + entry.query.length + entry.requestBody.length + entry.responseBody.length;
  for (const headers of [entry.requestHeaders, entry.responseHeaders]) {
    for (const name in headers) bytes += name.length + (headers[name]?.length ?? 0);
  }
  return bytes + 200;
}
