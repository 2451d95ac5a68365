import { BoundedStore } from '../bounded-store.js';
import type { ExchangeCapture } from '../capture/exchange.js';
import { shownBody } from '../capture/shown.js';
import { fromUtf8, utf8Length } from '../neutral/bytes.js';

/** One request as the emulator received it. */
export interface RecordedRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  /** The raw query, without `?`. */
  query: string;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body as UTF-8 text, up to `limits.maxRecordedBodyBytes` of it. */
  body: string;
  /** The whole body's size in bytes, as received (larger than `body` when it was cut). */
  bodyBytes: number;
}

export interface RecorderLimits {
  maxRecordedRequests: number;
  maxRecordedBytes: number;
  maxRecordedBodyBytes: number;
}

/**
 * The most recent authenticated API requests, newest last, bounded by count and by bytes so a
 * long-running or attacked emulator stays small; the oldest go first, and a request larger than the
 * whole byte limit is not kept (see `BoundedStore`).
 */
export class RequestRecorder {
  private readonly store: BoundedStore<never, RecordedRequest>;
  // The list `requests` last returned, made again only after a change: tests read it often, the
  // service writes on every request and should not pay for the list.
  private list: RecordedRequest[] | undefined;
  // Each request's capture (made once, by the pipeline, for every surface).
  private readonly captures = new WeakMap<RecordedRequest, ExchangeCapture>();
  // Each request's view for other processes, rendered from its capture the first time it is asked for.
  private readonly views = new WeakMap<RecordedRequest, RecordedRequest>();

  constructor(private readonly limits: RecorderLimits) {
    this.store = new BoundedStore({
      maxEntries: limits.maxRecordedRequests,
      maxBytes: limits.maxRecordedBytes,
    });
  }

  /** The kept requests, oldest first, newest last. */
  get requests(): RecordedRequest[] {
    this.list ??= this.store.values();
    return this.list;
  }

  record(
    method: string,
    path: string,
    query: string,
    received: Record<string, string>,
    body: Uint8Array,
    bodyBytes: number,
    capture: ExchangeCapture,
  ): void {
    const kept = body.subarray(0, this.limits.maxRecordedBodyBytes);
    let bytes = kept.length + utf8Length(path) + utf8Length(query) + method.length;
    const headers: Record<string, string> = {};
    for (const name in received) {
      const text = received[name] ?? '';
      headers[name] = text;
      bytes += name.length + utf8Length(text);
    }
    // A fresh string from the kept bytes: a slice of the whole body's text would keep all of it alive.
    const request = { method, path, query, headers, body: fromUtf8(kept), bodyBytes };
    this.store.add(request, bytes);
    this.captures.set(request, capture);
    this.list = undefined;
  }

  /**
   * The kept requests as any other process may read them (`GET /_emulator/requests`): each rendered
   * from its exchange's capture, redacted by the one policy (the emulator's own secrets and every
   * credential the request presented, a repeated header's each time, removed from its path, query,
   * headers and body).
   */
  redacted(): RecordedRequest[] {
    return this.requests.map((request) => {
      let view = this.views.get(request);
      if (!view) {
        const capture = this.captures.get(request);
        if (!capture) throw new Error('A kept request has no capture');
        view = redactedView(request, capture, this.limits.maxRecordedBodyBytes);
        this.views.set(request, view);
      }
      return view;
    });
  }

  clear(): void {
    this.store.clear();
    this.list = undefined;
  }
}

function redactedView(request: RecordedRequest, capture: ExchangeCapture, max: number): RecordedRequest {
  const { path, query, headers } = capture.head;
  const redacted = capture.requestBody?.body;
  return {
    method: request.method,
    path,
    query,
    headers,
    body: redacted === undefined ? '' : shownBody(redacted, max, 'the limit'),
    bodyBytes: request.bodyBytes,
  };
}
