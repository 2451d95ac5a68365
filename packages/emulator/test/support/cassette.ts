import type { Cassette, CassetteEntry } from '@dataworkz/emulator';

type Header = { name: string; value: string };

/** One recorded exchange with a 200 answer: its content type is the first of `response.headers`. */
export interface RecordedExchange {
  method: string;
  url: string;
  /** The request body, JSON text, as the cassette holds it. */
  body?: string;
  requestHeaders?: Header[];
  response: { headers: Header[]; text?: string; events?: { time: number; data: string }[] };
}

/** A HAR entry of one exchange, the fields replay does not read filled as a recorder fills them. */
export function recordedEntry(exchange: RecordedExchange): CassetteEntry {
  const { body, response } = exchange;
  return {
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: exchange.requestHeaders ?? [],
      queryString: [],
      ...(body === undefined ? {} : { postData: { mimeType: 'application/json', text: body } }),
      headersSize: -1,
      bodySize: body?.length ?? 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: response.headers,
      content: {
        size: response.text?.length ?? 0,
        mimeType: response.headers[0]?.value ?? '',
        ...(response.text === undefined ? {} : { text: response.text }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: response.text?.length ?? 0,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    ...(response.events ? { _events: response.events } : {}),
  } as CassetteEntry;
}

/**
 * A recorded A2A stream answering a POST of `body` to `url`: one event at once, the next 24.8 days
 * later (the longest a timer holds), so it stays open until its client leaves or a limit ends it.
 */
export function longStreamEntry(url: string, body: string): CassetteEntry {
  return recordedEntry({
    method: 'POST',
    url,
    body,
    requestHeaders: [{ name: 'content-type', value: 'application/json' }],
    response: {
      headers: [{ name: 'content-type', value: 'text/event-stream' }],
      events: [
        { time: 0, data: '{"n":1}' },
        { time: 2 ** 31 - 1, data: '{"n":2}' },
      ],
    },
  });
}

/** A cassette of `entries` as given: a test may hand it one a hand-edited file could hold. */
export function cassetteOf(...entries: unknown[]): Cassette {
  return { log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } } as Cassette;
}
