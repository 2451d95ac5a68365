import type { ServerResponse } from 'node:http';
import type { FaultRule } from './faults.js';

type Headers = Record<string, string | number>;

/**
 * Writes one response. Every response of an operation goes through here, so a fault rule
 * (cut body, truncated JSON, forced content type, extra headers) applies the same way to all.
 */
export class Reply {
  private streamEvents = 0;
  private cutting = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly baseHeaders: Headers,
    private readonly fault?: FaultRule,
  ) {}

  get finished(): boolean {
    return this.res.headersSent || this.res.destroyed;
  }

  json(status: number, value: unknown, headers: Headers = {}): void {
    this.send(status, 'application/json', JSON.stringify(value), headers);
  }

  send(status: number, contentType: string, body: string | Uint8Array, headers: Headers = {}): void {
    if (this.finished) return;
    if (!this.fault && typeof body === 'string') {
      // A string goes out in one write with the headers; a Buffer would be a second chunk.
      this.res.writeHead(status, {
        ...this.baseHeaders,
        ...headers,
        'content-type': contentType,
        'content-length': Buffer.byteLength(body),
      });
      this.res.end(body);
      return;
    }
    let bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
    if (this.fault?.malformed) bytes = bytes.subarray(0, Math.floor(bytes.length / 2));
    this.res.writeHead(status, {
      ...this.baseHeaders,
      ...headers,
      ...this.fault?.headers,
      'content-type': this.fault?.contentType ?? contentType,
      'content-length': bytes.length,
    });
    if (this.fault?.drop === 'during-body') {
      this.cut(bytes);
      return;
    }
    this.res.end(bytes);
  }

  /** Starts a Server-Sent Events response. */
  startStream(headers: Headers = {}): void {
    if (this.finished) return;
    this.res.writeHead(200, {
      ...this.baseHeaders,
      ...headers,
      ...this.fault?.headers,
      'content-type': this.fault?.contentType ?? 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders();
  }

  /** Writes one SSE event whose data is `value` as JSON; false once the stream is gone. */
  event(value: unknown): boolean {
    if (this.res.destroyed || this.res.writableEnded) return false;
    const frame = Buffer.from(`data: ${JSON.stringify(value)}\n\n`);
    this.streamEvents += 1;
    if (this.fault?.drop === 'during-body' && this.streamEvents === 1) {
      this.cut(frame);
      return false;
    }
    if (this.fault?.malformed && this.streamEvents === 1) {
      this.res.end(Buffer.concat([frame.subarray(0, Math.floor(frame.length / 2)), Buffer.from('\n\n')]));
      return false;
    }
    this.res.write(frame);
    return true;
  }

  endStream(): void {
    if (!this.cutting && !this.res.destroyed && !this.res.writableEnded) this.res.end();
  }

  /** Sends the first half of `bytes`, then destroys the socket mid-body. */
  private cut(bytes: Buffer): void {
    this.cutting = true;
    this.res.write(bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))), () => this.res.destroy());
  }
}
