import type { Redaction } from '@dataworkz/redaction';
import type { CapturedEvent } from '../../capture/events.js';
import { mediaTypeOf } from '../../capture/media-type.js';
import {
  exchangeRedaction,
  type HeaderList,
  redactEvent,
  redactHeaderList,
  redactQueryPairs,
} from '../../capture/redact.js';
import type { CassetteEntry, CassetteEvent, HarNameValue } from '../../cassette/har.js';
import { type BodyCapture, type BodyOptions, recordedBody } from './recorded-body.js';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and `host`, which name this connection, not the exchange. */
export const hopHeaders = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

/** One exchange with the deployment as the recorder saw it, nothing redacted yet. */
export interface ForwardedExchange {
  startedAt: number;
  /** Milliseconds: to the response's headers, and from them to its end. */
  wait: number;
  receive: number;
  request: {
    method: string;
    /** The deployment's URL of the request. */
    url: string;
    /** The target as forwarded (`/api/...?...`). */
    target: string;
    httpVersion: string;
    /** The headers as sent, repeats kept. */
    headers: HeaderList;
    body: BodyCapture;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HeaderList;
    bytes: number;
    /** A stream's events, each timed; else the body as captured. */
    events?: (CapturedEvent & { time: number })[] | undefined;
    /** Whether the events were read from a body decoded from its content coding. */
    eventsDecoded?: boolean;
    body?: BodyCapture | undefined;
  };
}

export interface EntryOptions {
  /** The emulator's own secrets (its keys, its JWT secret). */
  secrets: readonly string[];
  maxBytes: number;
  keepUnreadable: boolean;
}

/**
 * The cassette's entry of an exchange, rendered from the exchange captured once and redacted once:
 * headers (names and values, repeats kept), the URL, the query's names and values, the media types'
 * parameters, the bodies read by their media type and charset, a stream's events. Also the path as
 * the caller sent it, redacted the same way, for the drift report.
 */
export function harEntry(
  x: ForwardedExchange,
  options: EntryOptions,
): { entry: CassetteEntry; path: string } {
  const { request, response } = x;
  const at = request.target.indexOf('?');
  const query = at < 0 ? '' : request.target.slice(at + 1);
  const sent = request.headers.filter(([name]) => !hopHeaders.has(name.toLowerCase()));
  const answered = response.headers.filter(([name]) => !hopHeaders.has(name.toLowerCase()));
  const redaction = exchangeRedaction(options.secrets, sent, query, answered);
  const headerOf = (list: HeaderList, name: string) =>
    list.find(([n]) => n.toLowerCase() === name)?.[1] ?? '';
  const requestType = headerOf(sent, 'content-type');
  const responseType = headerOf(answered, 'content-type');
  const limits = { maxBytes: options.maxBytes, keepUnreadable: options.keepUnreadable };
  const entry: CassetteEntry = {
    startedDateTime: new Date(x.startedAt).toISOString(),
    time: round(x.wait + x.receive),
    request: {
      method: request.method,
      url: redaction.url(request.url),
      httpVersion: `HTTP/${request.httpVersion}`,
      cookies: [],
      headers: harHeaders(sent, redaction),
      queryString: redactQueryPairs([...new URLSearchParams(query)], redaction),
      headersSize: -1,
      bodySize: request.body.bytes,
    },
    response: {
      status: response.status,
      statusText: redaction.text(response.statusText),
      httpVersion: `HTTP/${response.httpVersion}`,
      cookies: [],
      headers: harHeaders(answered, redaction),
      content: { size: response.bytes, mimeType: redaction.mediaType(responseType) },
      redirectURL: '',
      headersSize: -1,
      bodySize: response.bytes,
    },
    cache: {},
    timings: { send: 0, wait: round(x.wait), receive: round(x.receive) },
  };
  if (request.body.bytes > 0) {
    const {
      text = '',
      _sha256,
      comment,
    } = recordedBody(request.body, redaction, {
      ...limits,
      contentType: requestType,
      contentEncoding: headerOf(sent, 'content-encoding'),
    } satisfies BodyOptions);
    entry.request.postData = {
      mimeType: redaction.mediaType(requestType),
      text,
      ...(_sha256 ? { _sha256, comment } : {}),
    };
  }
  let decoded = false;
  if (response.events) {
    entry._events = timedEvents(response.events, redaction);
    decoded = response.eventsDecoded === true;
  } else if (response.body) {
    const { size, ...content } = recordedBody(response.body, redaction, {
      ...limits,
      contentType: responseType,
      contentEncoding: headerOf(answered, 'content-encoding'),
    });
    entry.response.content = { ...content, size, mimeType: redaction.mediaType(responseType) };
    decoded = content.compression !== undefined;
  }
  // Recorded as it means: replay serves the decoded body, so the headers describe that.
  if (decoded) {
    entry.response.headers = entry.response.headers.filter(
      (h) => h.name !== 'content-encoding' && h.name !== 'content-length',
    );
  }
  const path = at < 0 ? request.target : request.target.slice(0, at);
  return { entry, path: redaction.text(path) };
}

/** Headers redacted, names and values, names in lower case. */
function harHeaders(list: HeaderList, redaction: Redaction): HarNameValue[] {
  return redactHeaderList(list, redaction).map(([name, value]) => ({ name: name.toLowerCase(), value }));
}

function timedEvents(
  events: readonly (CapturedEvent & { time: number })[],
  redaction: Redaction,
): CassetteEvent[] {
  return events.map(({ time, ...event }) => ({ time: round(time), ...redactEvent(event, redaction) }));
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Whether a response of this `Content-Type` is an event stream, its events recorded one by one. */
export function isStreamType(contentType: string): boolean {
  return mediaTypeOf(contentType).essence === 'text/event-stream';
}
