import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import { type Dispatcher, Pool } from 'undici';
import type { CassetteEntry, CassetteEvent, HarNameValue } from '../cassette/har.js';
import { redactEntry } from '../cassette/redact.js';
import { errorBody } from '../http/errors.js';
import { statusText } from '../http/status-text.js';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and `host`, which name this connection, not the exchange. */
const hopHeaders = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

/**
 * Not sent on either: `expect` was answered by this server already (Node sends the `100 Continue`),
 * and the deployment's client takes the body's length from the body it sends.
 */
const notForwarded = new Set([...hopHeaders, 'expect']);

export interface ForwarderOptions {
  /** Called with each finished exchange, redacted, after the caller has its response; `path` as the caller sent it. */
  onExchange(entry: CassetteEntry, path: string): void;
  /** Called when a request has been sent on whole, and the deployment's answer is awaited. */
  onSent?(): void;
  /** Called when the deployment cannot be reached (the caller gets a 502). */
  onError(message: string): void;
  /** Most bytes of a request or response body kept in the cassette. */
  maxBodyBytes: number;
}

/**
 * Forwards API requests to a deployment and returns its responses unchanged: the status, the headers
 * (but the hop-by-hop ones), and the body passed on chunk by chunk as it arrives, so an SSE stream
 * reaches the caller event by event. The exchange is captured on the side and handed on once it is over.
 *
 * The deployment is called through undici's connection pool, not `node:http`'s client: its parser
 * and request writer cost a fraction of a millisecond less per call, most of what a forwarder adds.
 */
export class Forwarder {
  private readonly base: URL;
  private readonly basePath: string;
  private readonly pool: Pool;

  constructor(
    target: string,
    private readonly options: ForwarderOptions,
  ) {
    this.base = new URL(target);
    this.basePath = this.base.pathname.replace(/\/+$/, '');
    // Kept-alive connections (a new connection per call would cost more than the recording does), with
    // no time limit of their own: an agent's stream may be quiet for minutes, as it may when called directly.
    this.pool = new Pool(this.base.origin, { headersTimeout: 0, bodyTimeout: 0 });
  }

  /** The deployment's URL of a request target (`/api/...?...`), under the base URL's own path. */
  urlOf(target: string): string {
    return `${this.base.origin}${this.basePath}${target}`;
  }

  forward(req: IncomingMessage, res: ServerResponse, target: string): void {
    const exchange = new Exchange(this, req, res, target);
    // The raw list, not `req.headers`: the object is built only if the cassette's entry asks for it.
    const raw = req.rawHeaders;
    const headers: string[] = [];
    // A request without a body (no length, not chunked) is sent without one, not as an empty stream.
    let hasBody = false;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] as string;
      const lower = name.toLowerCase();
      if (lower === 'content-length') hasBody ||= raw[i + 1] !== '0';
      else if (lower === 'transfer-encoding') hasBody = true;
      if (!notForwarded.has(lower)) headers.push(name, raw[i + 1] as string);
    }
    try {
      this.pool.dispatch(
        {
          path: `${this.basePath}${target}`,
          method: req.method ?? 'GET',
          headers,
          body: hasBody ? req : null,
        },
        exchange,
      );
    } catch (error) {
      // A request undici refuses to send (a header it rejects): answered as an unreachable deployment.
      exchange.onError(error as Error);
    }
  }

  /** Called by an exchange once its response is out. */
  finished(entry: CassetteEntry, target: string): void {
    this.options.onExchange(redactEntry(entry), target.split('?')[0] ?? '/');
  }

  sent(): void {
    this.options.onSent?.();
  }

  unreachable(error: NodeJS.ErrnoException, res: ServerResponse, target: string): void {
    // The code (ECONNREFUSED, ENOTFOUND) says what went wrong; the URL is the caller's own.
    const message = `The deployment ${this.base.origin} could not be reached: ${error.code ?? error.message}`;
    this.options.onError(message);
    const path = target.split('?')[0] ?? '/';
    const text = JSON.stringify(errorBody(502, message, path, 'DEPLOYMENT_UNREACHABLE'));
    res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  get maxBodyBytes(): number {
    return this.options.maxBodyBytes;
  }

  close(): void {
    // In-flight exchanges end with their connections, as the callers' own connections are closed.
    this.pool.destroy().catch(() => {});
  }
}

/**
 * One call through the forwarder, as undici's dispatch handler: the caller's response written as the
 * deployment's arrives, the request and response bodies kept on the side for the cassette.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private readonly started = performance.now();
  private readonly startedAt = Date.now();
  private headersAt = 0;
  private status = 0;
  private statusMessage = '';
  private responseHeaders: string[] = [];
  private contentType = '';
  private isStream = false;
  private readonly requestBody: Buffer[] = [];
  private requestBytes = 0;
  private readonly chunks: Buffer[] = [];
  private readonly arrivals: number[] = [];
  private bytes = 0;
  private abort: ((error?: Error) => void) | undefined;
  private resume: (() => void) | undefined;
  private done = false;

  constructor(
    private readonly forwarder: Forwarder,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly target: string,
  ) {
    // The caller left: stop the exchange with the deployment too (an agent run stops being followed).
    res.once('close', () => {
      if (!res.writableFinished && !this.done) {
        this.done = true;
        this.abort?.(new Error('The caller closed the connection'));
      }
    });
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.done) abort(new Error('The caller closed the connection'));
    else this.abort = abort;
  }

  /** Each chunk of the request body as it is written to the deployment (typed as its size in undici's types, but given the chunk). */
  onBodySent(chunk: unknown): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : undefined;
    if (bytes === undefined) return;
    this.requestBytes += bytes.length;
    if (this.requestBytes <= this.forwarder.maxBodyBytes) this.requestBody.push(bytes);
  }

  onRequestSent(): void {
    this.forwarder.sent();
  }

  onHeaders(status: number, raw: Buffer[], resume: () => void, message: string): boolean {
    // An informational answer (100, 103) is not the response: the real one follows.
    if (status < 200) return true;
    this.headersAt = performance.now();
    this.status = status;
    this.statusMessage = message;
    this.resume = resume;
    const all: string[] = [];
    const out: string[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      const name = (raw[i] as Buffer).toString('latin1');
      const value = (raw[i + 1] as Buffer).toString('latin1');
      all.push(name, value);
      const lower = name.toLowerCase();
      if (hopHeaders.has(lower)) continue;
      out.push(name, value);
      if (lower === 'content-type') this.contentType = value;
    }
    this.responseHeaders = all;
    const res = this.res;
    if (res.destroyed) return false;
    res.writeHead(status, out);
    this.isStream = this.contentType.startsWith('text/event-stream');
    // A stream's headers go out at once even when its first event is late (the caller is waiting on
    // them), but after the data already read with them: then both leave in one write.
    if (this.isStream) {
      setImmediate(() => {
        if (!res.headersSent && !res.destroyed) res.flushHeaders();
      });
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    // The body goes to the caller first; the capture keeps what is needed to record it afterwards
    // (a stream's chunks with the time each came, parsed into events only once it is over).
    const flowing = this.res.write(chunk);
    this.bytes += chunk.length;
    if (this.isStream) {
      this.chunks.push(chunk);
      this.arrivals.push(performance.now() - this.headersAt);
    } else if (this.bytes <= this.forwarder.maxBodyBytes) this.chunks.push(chunk);
    if (flowing) return true;
    // A caller slower than the deployment: its reading paces the deployment's connection.
    this.res.once('drain', () => this.resume?.());
    return false;
  }

  onComplete(): void {
    if (this.done) return;
    this.done = true;
    this.res.end();
    const ended = performance.now();
    // Recorded once the caller's response is out, off its path: redaction, the drift check and
    // the cassette's write run after the last bytes are written.
    setImmediate(() => this.forwarder.finished(this.entry(ended), this.target));
  }

  onError(error: Error): void {
    if (this.done) return;
    this.done = true;
    // The deployment cut the body: the caller's connection is cut the same way, nothing is recorded.
    if (this.res.headersSent || this.headersAt > 0) {
      this.res.destroy();
      return;
    }
    this.forwarder.unreachable(error as NodeJS.ErrnoException, this.res, this.target);
  }

  private entry(ended: number): CassetteEntry {
    const { req, target, status, contentType, isStream, bytes } = this;
    const url = this.forwarder.urlOf(target);
    return {
      startedDateTime: new Date(this.startedAt).toISOString(),
      time: round(ended - this.started),
      request: {
        method: req.method ?? 'GET',
        url,
        httpVersion: `HTTP/${req.httpVersion}`,
        cookies: [],
        headers: pairsOf(req.headers),
        queryString: queryOf(target),
        ...(this.requestBytes > 0
          ? {
              postData: {
                mimeType: String(req.headers['content-type'] ?? ''),
                text: Buffer.concat(this.requestBody).toString('utf8'),
              },
            }
          : {}),
        headersSize: -1,
        bodySize: this.requestBytes,
      },
      response: {
        status,
        statusText: this.statusMessage || statusText[status] || '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: rawPairsOf(this.responseHeaders),
        content: {
          size: bytes,
          mimeType: contentType,
          ...(isStream ? {} : textOrBase64(Buffer.concat(this.chunks), contentType)),
        },
        redirectURL: '',
        headersSize: -1,
        bodySize: bytes,
      },
      cache: {},
      timings: {
        send: 0,
        wait: round(this.headersAt - this.started),
        receive: round(ended - this.headersAt),
      },
      ...(isStream ? { _events: eventsOf(this.chunks, this.arrivals) } : {}),
    };
  }
}

/** A stream's events, each timed by the arrival of the chunk that completed it. */
function eventsOf(chunks: readonly Buffer[], arrivals: readonly number[]): CassetteEvent[] {
  const events: CassetteEvent[] = [];
  let at = 0;
  const parser = createParser({
    onEvent: (event) => {
      events.push({
        time: round(at),
        ...(event.event ? { event: event.event } : {}),
        ...(event.id !== undefined ? { id: event.id } : {}),
        data: event.data,
      });
    },
  });
  const decoder = new TextDecoder();
  chunks.forEach((chunk, k) => {
    at = arrivals[k] ?? 0;
    parser.feed(decoder.decode(chunk, { stream: true }));
  });
  return events;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function pairsOf(headers: Record<string, string | string[] | undefined>): HarNameValue[] {
  const out: HarNameValue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopHeaders.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) out.push({ name, value: one });
  }
  return out;
}

/** A raw header list's pairs, names lower-cased as `pairsOf` gives them, the hop-by-hop ones left out. */
function rawPairsOf(raw: readonly string[]): HarNameValue[] {
  const out: HarNameValue[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!hopHeaders.has(name)) out.push({ name, value: raw[i + 1] as string });
  }
  return out;
}

function queryOf(target: string): HarNameValue[] {
  const at = target.indexOf('?');
  if (at < 0) return [];
  return [...new URLSearchParams(target.slice(at + 1))].map(([name, value]) => ({ name, value }));
}

/** Text bodies as text; anything else (a PDF from the document endpoint) as base64, as HAR allows. */
function textOrBase64(body: Buffer, contentType: string): { text: string; encoding?: string } {
  const isText = contentType === '' || /json|text|xml|javascript|x-www-form-urlencoded/i.test(contentType);
  return isText ? { text: body.toString('utf8') } : { text: body.toString('base64'), encoding: 'base64' };
}
