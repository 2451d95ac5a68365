/**
 * The HAR 1.2 shape a cassette is written in (http://www.softwareishard.com/blog/har-12-spec/), the
 * part of it a cassette uses. Spelled out here rather than imported, so the public `Cassette` type
 * depends on no types package. A streamed response also keeps its events in `_events` (HAR lets a
 * writer add fields whose names start with `_`), each with its time since the response's headers.
 */
export interface Cassette {
  log: {
    version: string;
    creator: { name: string; version: string };
    entries: CassetteEntry[];
  };
}

/** A header, query parameter or cookie of a recorded exchange. */
export interface HarNameValue {
  name: string;
  value: string;
}

/** One recorded exchange of a cassette: a HAR 1.2 entry. */
export interface CassetteEntry {
  /** When the request started, as an ISO 8601 date. */
  startedDateTime: string;
  /** Milliseconds from the request's start to the response's end. */
  time: number;
  request: {
    method: string;
    /** The deployment's URL of the request, credentials in its query redacted. */
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    /** The body; one the redaction could not read is not kept: `text` is empty, `_sha256` names it. */
    postData?: { mimeType: string; text: string; _sha256?: string; comment?: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    /**
     * The body, decoded from its content encoding (`compression`: the bytes that saved). One the
     * redaction could not read (not text, JSON past the size limit) has no `text`, only its size and
     * `_sha256`, the SHA-256 (hex) of its bytes as sent, unless it was recorded with
     * `recordUnreadableBodies`.
     */
    content: {
      size: number;
      mimeType: string;
      text?: string;
      encoding?: string;
      compression?: number;
      _sha256?: string;
      comment?: string;
    };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  /** `wait` is the time to the response's headers; `receive` the time from them to its end. */
  timings: { send: number; wait: number; receive: number };
  /** The events of a Server-Sent Events response, in order, each with its delay after the headers. */
  _events?: CassetteEvent[];
}

/** One Server-Sent Event as received: its fields, and when it came. */
export interface CassetteEvent {
  /** Milliseconds after the response's headers. */
  time: number;
  event?: string;
  id?: string;
  data: string;
}

/** A cassette that cannot be read: not JSON, not HAR, or an entry without what replay needs. */
export class CassetteError extends Error {
  override readonly name = 'CassetteError';
}

/** The cassette's creator line. */
export const creator = { name: '@dataworkz/emulator', version: '1' };

/** Name/value pairs as a record, names in lower case, repeated names joined with `, `. */
export function headerRecord(pairs: readonly HarNameValue[]): Record<string, string> {
  // An own-key map: a recorded header named `constructor` or `__proto__` is kept as any other is.
  const out: Record<string, string> = Object.create(null);
  for (const { name, value } of pairs) {
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  }
  return out;
}
