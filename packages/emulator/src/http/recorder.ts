import { BoundedStore } from '../bounded-store.js';
import { captureBody } from '../capture/body.js';
import { mediaTypeOf } from '../capture/media-type.js';
import {
  bodyText,
  exchangeRedaction,
  headerPairs,
  headerRecordOf,
  redactBody,
  redactHeaderList,
} from '../capture/redact.js';
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

/** What a kept request was as sent, for its redacted view: the headers as listed, the body's bytes. */
interface AsSent {
  rawHeaders: readonly string[] | undefined;
  body: Uint8Array;
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
  private readonly asSent = new WeakMap<RecordedRequest, AsSent>();
  // Each request's view for other processes, redacted once, the first time it is asked for.
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
    rawHeaders?: readonly string[],
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
    this.asSent.set(request, { rawHeaders, body: kept });
    this.list = undefined;
  }

  /**
   * The kept requests as any other process may read them (`GET /_emulator/requests`): captured and
   * redacted by the one policy, the emulator's own `secrets` and every credential each request
   * presented (a repeated header's each time) removed from its path, query, headers and body.
   */
  redacted(secrets: readonly string[]): RecordedRequest[] {
    return this.requests.map((request) => {
      let view = this.views.get(request);
      if (!view) {
        view = redactedView(request, this.asSent.get(request), secrets, this.limits.maxRecordedBodyBytes);
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

function redactedView(
  request: RecordedRequest,
  asSent: AsSent | undefined,
  secrets: readonly string[],
  maxBytes: number,
): RecordedRequest {
  const sent = asSent?.rawHeaders ? headerPairs(asSent.rawHeaders) : Object.entries(request.headers);
  const redaction = exchangeRedaction(secrets, sent, request.query);
  const body = captureBody({
    bytes: asSent?.body ?? new Uint8Array(),
    size: request.bodyBytes,
    type: mediaTypeOf(request.headers['content-type']),
    contentEncoding: request.headers['content-encoding'],
  });
  const redacted = redactBody(body, redaction);
  const cutJson = redacted.kind === 'text' && redacted.json && redacted.cut;
  return {
    method: request.method,
    path: redaction.text(request.path),
    query: request.query === '' ? '' : redaction.url(`?${request.query}`).slice(1),
    headers: headerRecordOf(redactHeaderList(sent, redaction)),
    body:
      redacted.kind === 'unreadable'
        ? `[${redacted.size} bytes not shown: ${redacted.why}; SHA-256 ${redacted.sha256}]`
        : cutJson
          ? `[${redacted.size} bytes of JSON past the limit of ${maxBytes}: not shown, as its members cannot be checked for secrets]`
          : bodyText(redacted),
    bodyBytes: request.bodyBytes,
  };
}
