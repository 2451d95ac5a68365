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

interface Entry {
  request: RecordedRequest;
  bytes: number;
}

/**
 * The most recent authenticated API requests, newest last, bounded by count and by bytes so a
 * long-running or attacked emulator stays small; the oldest go first.
 */
export class RequestRecorder {
  readonly requests: RecordedRequest[] = [];
  private readonly sizes: number[] = [];
  private bytes = 0;

  constructor(private readonly limits: RecorderLimits) {}

  record(
    method: string,
    path: string,
    query: string,
    headers: Record<string, string>,
    body: Uint8Array,
    bodyBytes: number,
  ): void {
    const entry = this.entry(method, path, query, headers, body, bodyBytes);
    this.requests.push(entry.request);
    this.sizes.push(entry.bytes);
    this.bytes += entry.bytes;
    while (
      this.requests.length > this.limits.maxRecordedRequests ||
      (this.bytes > this.limits.maxRecordedBytes && this.requests.length > 0)
    ) {
      this.requests.shift();
      this.bytes -= this.sizes.shift() ?? 0;
    }
  }

  clear(): void {
    this.requests.length = 0;
    this.sizes.length = 0;
    this.bytes = 0;
  }

  private entry(
    method: string,
    path: string,
    query: string,
    received: Record<string, string>,
    body: Uint8Array,
    bodyBytes: number,
  ): Entry {
    const kept = body.subarray(0, this.limits.maxRecordedBodyBytes);
    let bytes = kept.length + utf8Length(path) + utf8Length(query) + method.length;
    const headers: Record<string, string> = {};
    for (const name in received) {
      const text = received[name] ?? '';
      headers[name] = text;
      bytes += name.length + utf8Length(text);
    }
    // A fresh string from the kept bytes: a slice of the whole body's text would keep all of it alive.
    return { request: { method, path, query, headers, body: fromUtf8(kept), bodyBytes }, bytes };
  }
}
