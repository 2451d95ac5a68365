import { utf8 } from '../neutral/bytes.js';
import type { Answer } from './answer.js';
import type { Closing } from './closing.js';
import type { FaultRule } from './faults.js';

type Headers = Record<string, string | number>;

/** What a network failure looks like to a `fetch` caller: the request got no response. */
class DroppedConnection extends TypeError {
  override readonly name = 'TypeError';
  constructor() {
    super('fetch failed: the emulator dropped the connection');
  }
}

/** The headers as text, in an own-key map: a header named `__proto__` or `constructor` is a header like any other. */
const textHeaders = (headers: Headers): Record<string, string> => {
  const out: Record<string, string> = Object.create(null);
  for (const name in headers) out[name] = String(headers[name]);
  return out;
};

/** Where the one response of an exchange goes, whichever reply (plain or faulted) writes it. */
export class Outlet {
  /** Settles once the status and headers are decided, or rejects when the connection is dropped. */
  readonly response: Promise<Answer>;
  started = false;
  private settle!: { resolve: (answer: Answer) => void; reject: (error: unknown) => void };

  constructor(readonly closing: Closing) {
    this.response = new Promise<Answer>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }

  start(answer: Answer): void {
    this.started = true;
    this.settle.resolve(answer);
  }

  /** No response at all: the caller sees a network failure. */
  refuse(): void {
    this.started = true;
    this.settle.reject(new DroppedConnection());
  }
}

/**
 * Writes one response. Every response of an operation goes through here,
 * so a fault rule (cut body, truncated JSON, forced content type, extra headers, dropped connection)
 * applies the same way to all, in process and over HTTP.
 */
export class Reply {
  private stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  private streamEvents = 0;
  private ended = false;

  constructor(
    private readonly outlet: Outlet,
    private readonly baseHeaders: Headers,
    private readonly fault?: FaultRule,
  ) {}

  /** Whether the status went out (or the connection is gone): nothing else can be answered. */
  get finished(): boolean {
    return this.outlet.started || this.outlet.closing.closed;
  }

  /** The same exchange, answered without the fault rule (to report a failure of the faulted answer). */
  plain(): Reply {
    return new Reply(this.outlet, this.baseHeaders);
  }

  /** The same exchange, answered through a fault rule. */
  withFault(fault: FaultRule): Reply {
    return new Reply(this.outlet, this.baseHeaders, fault);
  }

  json(status: number, value: unknown, headers: Headers = {}): void {
    this.send(status, 'application/json', JSON.stringify(value), headers);
  }

  send(status: number, contentType: string, body: string | Uint8Array, headers: Headers = {}): void {
    if (this.finished) return;
    if (!this.fault && typeof body === 'string') {
      const all = textHeaders({ ...this.baseHeaders, ...headers, 'content-type': contentType });
      this.outlet.start({ status, headers: all, body });
      this.outlet.closing.close();
      return;
    }
    let bytes = typeof body === 'string' ? utf8(body) : body;
    if (this.fault?.malformed) bytes = bytes.subarray(0, Math.floor(bytes.length / 2));
    const all = textHeaders({
      ...this.baseHeaders,
      ...headers,
      ...this.fault?.headers,
      'content-type': this.fault?.contentType ?? contentType,
      'content-length': bytes.length,
    });
    if (this.fault?.drop === 'during-body') {
      const half = bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2)));
      this.outlet.start({ status, headers: all, body: cutStream(half) });
    } else {
      this.outlet.start({ status, headers: all, body: bytes });
    }
    this.outlet.closing.close();
  }

  /**
   * Answers with a whole answer made elsewhere (a replayed one): its headers over the exchange's own,
   * and the fault rule, if any, applied as to an answer of the emulated service.
   */
  answer(answer: Answer): void {
    if (this.finished) return;
    const { body } = answer;
    if (this.fault) {
      if (body instanceof ReadableStream) void this.relayEvents(answer.status, answer.headers, body);
      else {
        const type = answer.headers['content-type'] ?? 'application/octet-stream';
        this.send(answer.status, type, body ?? '', answer.headers);
      }
      return;
    }
    this.outlet.start({ ...answer, headers: textHeaders({ ...this.baseHeaders, ...answer.headers }) });
    if (!(body instanceof ReadableStream)) this.outlet.closing.close();
  }

  /** A stream made elsewhere, sent on through the fault rule chunk by chunk (each chunk one whole event). */
  private async relayEvents(
    status: number,
    headers: Record<string, string>,
    body: ReadableStream<Uint8Array>,
  ): Promise<void> {
    const reader = body.getReader();
    this.outlet.closing.on(() => {
      reader.cancel().catch(() => {});
    });
    this.startStream(headers, status);
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        if (!this.frame(next.value)) break;
      }
    } catch {
      // The source failed: the caller sees the stream end where it stands.
    } finally {
      this.endStream();
    }
  }

  /** Answers with a deployment's answer, passed on as it came (recording): none of the exchange's own headers. */
  forwarded(answer: Answer): void {
    if (this.finished) return;
    this.outlet.start(answer);
    if (!(answer.body instanceof ReadableStream)) this.outlet.closing.close();
  }

  /** Answers without a body (preflight requests). */
  empty(status: number, headers: Headers = {}): void {
    if (this.finished) return;
    this.outlet.start({ status, headers: textHeaders({ ...this.baseHeaders, ...headers }), body: null });
    this.outlet.closing.close();
  }

  /** Starts a Server-Sent Events response. */
  startStream(headers: Headers = {}, status = 200): void {
    if (this.finished) return;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.stream = controller;
      },
      // The reader went away: a cancelled body, or a closed socket behind the node:http adapter.
      cancel: () => {
        this.ended = true;
        this.outlet.closing.close();
      },
    });
    const all = textHeaders({
      ...this.baseHeaders,
      ...headers,
      ...this.fault?.headers,
      'content-type': this.fault?.contentType ?? 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.outlet.start({ status, headers: all, body });
  }

  /** Writes one SSE event whose data is `value` as JSON; false once the stream is gone. */
  event(value: unknown): boolean {
    return this.frame(utf8(`data: ${JSON.stringify(value)}\n\n`));
  }

  /** Writes one whole SSE event, through the fault rule; false once the stream is gone. */
  private frame(frame: Uint8Array): boolean {
    const stream = this.stream;
    if (!stream || this.ended || this.outlet.closing.closed) return false;
    this.streamEvents += 1;
    const cutAfter = this.fault?.dropAfterEvents;
    // A connection lost between two events: the reader has every event before it, whole.
    if (cutAfter !== undefined && this.streamEvents > cutAfter) {
      this.fail(stream);
      return false;
    }
    if (this.fault?.drop === 'during-body' && this.streamEvents === 1) {
      stream.enqueue(frame.subarray(0, Math.max(1, Math.floor(frame.length / 2))));
      this.fail(stream);
      return false;
    }
    if (this.fault?.malformed && this.streamEvents === 1) {
      stream.enqueue(frame.subarray(0, Math.floor(frame.length / 2)));
      stream.enqueue(utf8('\n\n'));
      this.endStream();
      return false;
    }
    stream.enqueue(frame);
    return true;
  }

  endStream(): void {
    if (this.stream && !this.ended) {
      this.ended = true;
      this.stream.close();
    }
    this.outlet.closing.close();
  }

  /** Ends the exchange as a lost connection: no response at all, or a body cut where it stands. */
  drop(): void {
    if (!this.outlet.started) this.outlet.refuse();
    else if (this.stream && !this.ended) {
      this.fail(this.stream);
    }
    this.outlet.closing.close();
  }

  private fail(stream: ReadableStreamDefaultController<Uint8Array>): void {
    this.ended = true;
    stream.error(new DroppedConnection());
  }
}

/** A body that delivers `bytes` and then fails, as a connection lost mid-body does. */
function cutStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull: (controller) => {
      if (sent) controller.error(new DroppedConnection());
      else {
        sent = true;
        controller.enqueue(bytes);
      }
    },
  });
}
