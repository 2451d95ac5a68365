import { once } from 'node:events';
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { headerPairs } from '../../capture/redact.js';
import type { CassetteEntry } from '../../cassette/har.js';
import type { Answer } from '../../http/answer.js';
import { errorBody } from '../../http/errors.js';
import { statusText } from '../../http/status-text.js';
import type { Incoming } from '../../pipeline.js';
import { type ForwardedExchange, harEntry, hopHeaders, isStreamType } from './har-entry.js';
import { BodyCapture, isText } from './recorded-body.js';
import { StreamCapture } from './stream-capture.js';
import { forwardedTarget } from './target-path.js';

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

/** A request on its way to the deployment: what was sent, and when. */
interface Sent {
  incoming: Incoming;
  target: string;
  headers: [string, string][];
  body: BodyCapture;
  startedAt: number;
  started: number;
}

/**
 * Forwards API requests to a deployment and returns its responses unchanged: the status, the headers
 * (but the hop-by-hop ones), and the body piped chunk by chunk as it arrives, so an SSE stream reaches
 * the caller event by event. The exchange is captured on the side and, once it is over, handed to
 * the cassette's capture (`harEntry`), which redacts it: the proxy itself keeps nothing.
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
    const checked = forwardedTarget(incoming.target);
    if ('refused' in checked) {
      // Whatever body it sent is read and dropped, so the connection can serve the next request.
      void drain(incoming);
      const path = incoming.target.split('?')[0] ?? '/';
      return Promise.resolve(jsonAnswer(400, errorBody(400, checked.refused, path, 'PATH_OUTSIDE_API')));
    }
    const sent = this.sentOf(incoming, checked.target);
    const upstream = this.open(sent);
    let delivered = false;
    onClose(() => {
      if (!delivered) upstream.destroy();
    });
    void sendBody(incoming, upstream, sent.body);
    return new Promise<Answer>((resolve) => {
      upstream.on('response', (answer) => {
        resolve(
          this.passOn(sent, upstream, answer, () => {
            delivered = true;
          }),
        );
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (delivered) return;
        resolve(this.unreachable(error, sent.target));
      });
    });
  }

  close(): void {
    this.agent.destroy();
  }

  /** The request as it goes to the deployment: its own headers but the hop-by-hop ones, the host's. */
  private sentOf(incoming: Incoming, target: string): Sent {
    const headers = headerPairs(incoming.rawHeaders ?? Object.entries(incoming.headers).flat());
    const contentType = incoming.headers['content-type'] ?? '';
    return {
      incoming,
      target,
      headers,
      body: new BodyCapture(this.options.maxBodyBytes, !isText(contentType)),
      startedAt: Date.now(),
      started: performance.now(),
    };
  }

  /** Opens the request to the deployment (its body follows as it arrives). */
  private open(sent: Sent): ClientRequest {
    const headers: string[] = ['Host', this.base.host];
    for (const [name, value] of sent.headers) {
      if (!hopHeaders.has(name.toLowerCase())) headers.push(name, value);
    }
    const upstream = this.send({
      protocol: this.base.protocol,
      hostname: this.base.hostname,
      port: this.base.port,
      path: `${this.basePath}${sent.target}`,
      method: sent.incoming.method,
      headers,
      agent: this.agent,
    });
    // Each event goes on as soon as it is written, not held back to be sent with the next one.
    upstream.once('socket', (socket) => socket.setNoDelay(true));
    upstream.once('finish', () => this.options.onSent?.());
    return upstream;
  }

  /**
   * The deployment's answer passed on to the caller as it comes, captured on the side; recorded once
   * the caller has its last bytes.
   */
  private passOn(sent: Sent, upstream: ClientRequest, answer: IncomingMessage, ended: () => void): Answer {
    const headersAt = performance.now();
    const headerList: string[] = [];
    const headers: Record<string, string> = {};
    const raw = answer.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i] as string;
      const value = raw[i + 1] as string;
      const lower = name.toLowerCase();
      if (hopHeaders.has(lower)) continue;
      headerList.push(name, value);
      headers[lower] = headers[lower] === undefined ? value : `${headers[lower]}, ${value}`;
    }
    const contentType = headers['content-type'] ?? '';
    const capture = new StreamCapture(
      isStreamType(contentType),
      headers['content-encoding'] ?? '',
      this.options.maxBodyBytes,
      !isText(contentType),
    );
    let recorded: (entry: CassetteEntry | undefined) => void = () => {};
    const entry = new Promise<CassetteEntry | undefined>((resolve) => {
      recorded = resolve;
    });
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        answer.on('data', (chunk: Buffer) => {
          controller.enqueue(chunk);
          // A caller slower than the deployment: its reading paces the deployment's connection.
          if ((controller.desiredSize ?? 1) <= 0) answer.pause();
          capture.push(chunk, performance.now() - headersAt);
        });
        answer.on('end', () => {
          controller.close();
          ended();
          const at = performance.now();
          // Recorded once the caller's response is out, off its path: redaction, the drift check and
          // the cassette's write run after the last bytes are written.
          setImmediate(() => {
            let entry: CassetteEntry | undefined;
            try {
              entry = this.record(sent, answer, capture, headersAt, at);
            } finally {
              recorded(entry);
            }
          });
        });
        // The deployment cut the body: the caller's connection is cut the same way, nothing is recorded.
        const cut = () => {
          ended();
          recorded(undefined);
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
    return { status: answer.statusCode ?? 502, headers, headerList, body, recorded: entry };
  }

  /** Hands a finished exchange on, captured and redacted, as a cassette entry; returns the entry. */
  private record(
    sent: Sent,
    answer: IncomingMessage,
    capture: StreamCapture,
    headersAt: number,
    endedAt: number,
  ): CassetteEntry {
    const status = answer.statusCode ?? 0;
    const events = capture.events();
    const exchange: ForwardedExchange = {
      startedAt: sent.startedAt,
      wait: headersAt - sent.started,
      receive: endedAt - headersAt,
      request: {
        method: sent.incoming.method,
        url: this.urlOf(sent.target),
        target: sent.target,
        httpVersion: sent.incoming.httpVersion ?? '1.1',
        headers: sent.headers,
        body: sent.body,
      },
      response: {
        status,
        statusText: answer.statusMessage ?? statusText[status] ?? '',
        httpVersion: answer.httpVersion,
        headers: headerPairs(answer.rawHeaders),
        bytes: capture.bytes,
        events,
        eventsDecoded: events !== undefined && capture.coded,
        body: capture.streamed ? undefined : capture.body,
      },
    };
    const { entry, path } = harEntry(exchange, {
      secrets: this.options.secrets ?? [],
      maxBytes: this.options.maxBodyBytes,
      keepUnreadable: this.options.recordUnreadableBodies === true,
    });
    this.options.onExchange(entry, path);
    return entry;
  }

  /** The caller's 502 when the deployment cannot be reached. */
  private unreachable(error: NodeJS.ErrnoException, target: string): Answer {
    // The code (ECONNREFUSED, ENOTFOUND) says what went wrong; the URL is the caller's own.
    const message = `The deployment ${this.base.origin} could not be reached: ${error.code ?? error.message}`;
    this.options.onError(message);
    const path = target.split('?')[0] ?? '/';
    return jsonAnswer(502, errorBody(502, message, path, 'DEPLOYMENT_UNREACHABLE'));
  }
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
