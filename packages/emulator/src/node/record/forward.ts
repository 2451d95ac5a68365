import { once } from 'node:events';
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import type { CassetteEntry, CassetteEvent, HarNameValue } from '../../cassette/har.js';
import { redactEnvelope, redactionFor } from '../../cassette/redact.js';
import type { Answer } from '../../http/answer.js';
import { errorBody } from '../../http/errors.js';
import { statusText } from '../../http/status-text.js';
import type { Incoming } from '../../pipeline.js';
import { BodyCapture, decodeBody, isText, recordedBody } from './recorded-body.js';
import { forwardedTarget } from './target-path.js';

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

export interface ForwarderOptions {
  /** Called with each finished exchange, redacted, after the caller has its response; `path` as the caller sent it. */
  onExchange(entry: CassetteEntry, path: string): void;
  /** Called when a request has been sent on whole, and the deployment's answer is awaited. */
  onSent?(): void;
  /** Called when the deployment cannot be reached (the caller gets a 502). */
  onError(message: string): void;
  /** Most bytes of a request or response body kept in the cassette. */
  maxBodyBytes: number;
  /** Secrets to scrub besides those each request presents: the emulator's own keys. */
  secrets?: readonly string[];
  /** Keep bodies the redaction cannot read (binary, JSON past the limit), scrubbed of known secrets only. */
  recordUnreadableBodies?: boolean;
}

/**
 * Forwards API requests to a deployment and returns its responses unchanged: the status, the headers
 * (but the hop-by-hop ones), and the body piped chunk by chunk as it arrives, so an SSE stream reaches
 * the caller event by event. The exchange is captured on the side and handed on once it is over.
 */
export class Forwarder {
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;
  private readonly basePath: string;

  constructor(
    target: string,
    private readonly options: ForwarderOptions,
  ) {
    this.base = new URL(target);
    const secure = this.base.protocol === 'https:';
    // Kept-alive connections: a new connection per call would cost more than the recording does.
    this.agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.send = secure ? httpsRequest : httpRequest;
    this.basePath = this.base.pathname.replace(/\/+$/, '');
  }

  /** The deployment's URL of a request target (`/api/...?...`), under the base URL's own path. */
  urlOf(target: string): string {
    return `${this.base.origin}${this.basePath}${target}`;
  }

  /**
   * Sends a request on to the deployment; resolves with its answer once its headers come, the body
   * passed on chunk by chunk as it arrives (paced by the caller's reading). `onClose` tells of the
   * caller's going: the exchange with the deployment stops too (an agent run stops being followed).
   */
  forward(incoming: Incoming, onClose: (listener: () => void) => void): Promise<Answer> {
    const asSent = incoming.target;
    const checked = forwardedTarget(asSent);
    if ('refused' in checked) {
      // Whatever body it sent is read and dropped, so the connection can serve the next request.
      void drain(incoming);
      return Promise.resolve(
        jsonAnswer(400, errorBody(400, checked.refused, asSent.split('?')[0] ?? '/', 'PATH_OUTSIDE_API')),
      );
    }
    const target = checked.target;
    const started = performance.now();
    const startedAt = Date.now();
    const rawRequest = incoming.rawHeaders ?? listOf(incoming.headers);
    const headers: string[] = ['Host', this.base.host];
    for (let i = 0; i < rawRequest.length; i += 2) {
      const name = rawRequest[i] as string;
      if (!hopHeaders.has(name.toLowerCase())) headers.push(name, rawRequest[i + 1] as string);
    }
    const requestType = incoming.headers['content-type'] ?? '';
    const requestBody = new BodyCapture(this.options.maxBodyBytes, !isText(requestType));
    const upstream = this.send({
      protocol: this.base.protocol,
      hostname: this.base.hostname,
      port: this.base.port,
      path: `${this.basePath}${target}`,
      method: incoming.method,
      headers,
      agent: this.agent,
    });
    // Each event goes on as soon as it is written, not held back to be sent with the next one.
    upstream.once('socket', (socket) => socket.setNoDelay(true));
    upstream.once('finish', () => this.options.onSent?.());
    let delivered = false;
    onClose(() => {
      if (!delivered) upstream.destroy();
    });
    void sendBody(incoming, upstream, requestBody);
    return new Promise<Answer>((resolve) => {
      upstream.on('response', (answer) => {
        const headersAt = performance.now();
        const outHeaders: string[] = [];
        const outRecord: Record<string, string> = {};
        let contentType = '';
        const rawAnswer = answer.rawHeaders;
        for (let i = 0; i < rawAnswer.length; i += 2) {
          const name = rawAnswer[i] as string;
          const value = rawAnswer[i + 1] as string;
          const lower = name.toLowerCase();
          if (hopHeaders.has(lower)) continue;
          outHeaders.push(name, value);
          outRecord[lower] = outRecord[lower] === undefined ? value : `${outRecord[lower]}, ${value}`;
          if (lower === 'content-type') contentType = value;
        }
        const isStream = contentType.startsWith('text/event-stream');
        // The body goes to the caller first; the capture keeps what is needed to record it afterwards
        // (a stream's chunks with the time each came, parsed into events only once it is over).
        const chunks: Buffer[] = [];
        const arrivals: number[] = [];
        const body = new BodyCapture(this.options.maxBodyBytes, !isText(contentType));
        let bytes = 0;
        const record = (ended: number) => {
          delivered = true;
          // Recorded once the caller's response is out, off its path: redaction, the drift check and
          // the cassette's write run after the last bytes are written.
          setImmediate(() =>
            this.record({
              incoming,
              target,
              startedAt,
              started,
              headersAt,
              ended,
              answer,
              contentType,
              requestType,
              requestBody,
              isStream,
              chunks,
              arrivals,
              body,
              bytes,
            }),
          );
        };
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            answer.on('data', (chunk: Buffer) => {
              controller.enqueue(chunk);
              // A caller slower than the deployment: its reading paces the deployment's connection.
              if ((controller.desiredSize ?? 1) <= 0) answer.pause();
              bytes += chunk.length;
              if (isStream) {
                chunks.push(chunk);
                arrivals.push(performance.now() - headersAt);
              } else body.push(chunk);
            });
            answer.on('end', () => {
              controller.close();
              record(performance.now());
            });
            // The deployment cut the body: the caller's connection is cut the same way, nothing is recorded.
            const cut = () => {
              delivered = true;
              try {
                controller.error(new Error('The deployment cut the response'));
              } catch {
                // Already ended.
              }
            };
            answer.on('error', cut);
            answer.on('aborted', cut);
          },
          pull() {
            answer.resume();
          },
          cancel() {
            upstream.destroy();
          },
        });
        resolve({
          status: answer.statusCode ?? 502,
          headers: outRecord,
          headerList: outHeaders,
          body: stream,
        });
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (delivered) return;
        // The code (ECONNREFUSED, ENOTFOUND) says what went wrong; the URL is the caller's own.
        const message = `The deployment ${this.base.origin} could not be reached: ${error.code ?? error.message}`;
        this.options.onError(message);
        const path = target.split('?')[0] ?? '/';
        resolve(jsonAnswer(502, errorBody(502, message, path, 'DEPLOYMENT_UNREACHABLE')));
      });
    });
  }

  /** Hands a finished exchange on, redacted, as a cassette entry. */
  private record(x: {
    incoming: Incoming;
    target: string;
    startedAt: number;
    started: number;
    headersAt: number;
    ended: number;
    answer: IncomingMessage;
    contentType: string;
    requestType: string;
    requestBody: BodyCapture;
    isStream: boolean;
    chunks: Buffer[];
    arrivals: number[];
    body: BodyCapture;
    bytes: number;
  }): void {
    const { incoming, target, answer, contentType, requestType, requestBody, bytes } = x;
    const responseEncoding = String(answer.headers['content-encoding'] ?? '');
    const entry: CassetteEntry = {
      startedDateTime: new Date(x.startedAt).toISOString(),
      time: round(x.ended - x.started),
      request: {
        method: incoming.method,
        url: this.urlOf(target),
        httpVersion: `HTTP/${incoming.httpVersion ?? '1.1'}`,
        cookies: [],
        headers: pairsOf(incoming.rawHeaders ?? listOf(incoming.headers)),
        queryString: queryOf(target),
        headersSize: -1,
        bodySize: requestBody.bytes,
      },
      response: {
        status: answer.statusCode ?? 0,
        statusText: answer.statusMessage ?? statusText[answer.statusCode ?? 0] ?? '',
        httpVersion: `HTTP/${answer.httpVersion}`,
        cookies: [],
        headers: pairsOf(answer.rawHeaders),
        content: { size: bytes, mimeType: contentType },
        redirectURL: '',
        headersSize: -1,
        bodySize: bytes,
      },
      cache: {},
      timings: { send: 0, wait: round(x.headersAt - x.started), receive: round(x.ended - x.headersAt) },
    };
    // The policy is set up from the exchange's credentials; the bodies are redacted whole, then cut.
    const redaction = redactionFor(entry, this.options.secrets);
    const limits = {
      maxBytes: this.options.maxBodyBytes,
      keepUnreadable: this.options.recordUnreadableBodies === true,
    };
    if (requestBody.bytes > 0) {
      const {
        text = '',
        _sha256,
        comment,
      } = recordedBody(requestBody, redaction, {
        ...limits,
        contentType: requestType,
        contentEncoding: incoming.headers['content-encoding'] ?? '',
      });
      entry.request.postData = {
        mimeType: requestType,
        text,
        ...(_sha256 ? { _sha256, comment } : {}),
      };
    }
    let decoded = false;
    if (x.isStream) {
      const events = eventsOf(x.chunks, x.arrivals, responseEncoding, this.options.maxBodyBytes);
      if (events) {
        entry._events = events;
        decoded = responseEncoding !== '';
      }
    } else {
      const { size, ...content } = recordedBody(x.body, redaction, {
        ...limits,
        contentType,
        contentEncoding: responseEncoding,
      });
      entry.response.content = { ...content, size, mimeType: contentType };
      decoded = content.compression !== undefined;
    }
    // Recorded as it means: replay serves the decoded body, so the headers describe that.
    if (decoded) {
      entry.response.headers = entry.response.headers.filter(
        (h) => h.name !== 'content-encoding' && h.name !== 'content-length',
      );
    }
    // The path as the caller sent it, for the drift report: scrubbed too (a key may ride in it).
    this.options.onExchange(redactEnvelope(entry, redaction), redaction.text(target.split('?')[0] ?? '/'));
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * A stream's events, each timed by the arrival of the chunk that completed it. A stream in a content
 * encoding is decoded whole, its events timed by its last chunk; undefined if it cannot be decoded.
 */
function eventsOf(
  given: readonly Buffer[],
  times: readonly number[],
  contentEncoding: string,
  maxBytes: number,
): CassetteEvent[] | undefined {
  let chunks = given;
  let arrivals = times;
  if (contentEncoding.trim() !== '') {
    const whole = decodeBody(
      Buffer.concat(given),
      contentEncoding,
      Math.max(maxBytes, Buffer.concat(given).length * 64),
    );
    if (!whole) return undefined;
    chunks = [whole];
    arrivals = [times.at(-1) ?? 0];
  }
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

/**
 * A raw header list's pairs as sent (a repeated header stays repeated), names lower-cased, the hop-by-hop
 * ones left out.
 */
function pairsOf(raw: readonly string[]): HarNameValue[] {
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

/** The request's body sent on as it arrives, kept on the side for the cassette. */
async function sendBody(incoming: Incoming, upstream: ClientRequest, capture: BodyCapture): Promise<void> {
  try {
    if (incoming.bodyStream) {
      for await (const chunk of incoming.bodyStream()) {
        capture.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if (!upstream.write(chunk)) await once(upstream, 'drain');
      }
    } else {
      const { bytes } = await incoming.readBody(Number.MAX_SAFE_INTEGER);
      if (bytes.length > 0) {
        capture.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        upstream.write(bytes);
      }
    }
    upstream.end();
  } catch {
    // The caller stopped sending: so does the request to the deployment.
    upstream.destroy();
  }
}

/** Reads a refused request's body to its end, so its connection can serve the next request. */
async function drain(incoming: Incoming): Promise<void> {
  try {
    if (incoming.bodyStream) for await (const _ of incoming.bodyStream());
  } catch {
    // Gone already.
  }
}

function jsonAnswer(status: number, value: unknown): Answer {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

/** A header record as a list of names and values in turn. */
function listOf(headers: Record<string, string>): string[] {
  return Object.entries(headers).flat();
}
