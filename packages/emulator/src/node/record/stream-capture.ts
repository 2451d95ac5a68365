import type { CapturedEvent } from '../../capture/events.js';
import { EventReader } from '../../capture/events.js';
import { BodyCapture, decodeBody } from './recorded-body.js';

/**
 * A response body as it passes the recorder: an event stream's chunks with the time each came (read
 * into events only once it is over, off the caller's path), any other body kept as a `BodyCapture`.
 */
export class StreamCapture {
  readonly body: BodyCapture;
  readonly coded: boolean;
  bytes = 0;
  private readonly chunks: Buffer[] = [];
  private readonly arrivals: number[] = [];

  constructor(
    readonly streamed: boolean,
    private readonly contentEncoding: string,
    private readonly maxBytes: number,
    hashFromStart: boolean,
  ) {
    this.body = new BodyCapture(maxBytes, hashFromStart);
    this.coded = contentEncoding.trim() !== '';
  }

  /** One chunk, `at` milliseconds after the response's headers. */
  push(chunk: Buffer, at: number): void {
    this.bytes += chunk.length;
    if (!this.streamed) {
      this.body.push(chunk);
      return;
    }
    this.chunks.push(chunk);
    this.arrivals.push(at);
  }

  /**
   * The stream's events, each timed by the arrival of the chunk that completed it. A stream in a
   * content encoding is decoded whole, its events timed by its last chunk; undefined if it cannot be
   * decoded, or if this is no stream.
   */
  events(): (CapturedEvent & { time: number })[] | undefined {
    if (!this.streamed) return undefined;
    let chunks: readonly Buffer[] = this.chunks;
    let arrivals: readonly number[] = this.arrivals;
    if (this.coded) {
      const whole = Buffer.concat(this.chunks);
      const decoded = decodeBody(whole, this.contentEncoding, Math.max(this.maxBytes, whole.length * 64));
      if (!decoded) return undefined;
      chunks = [decoded];
      arrivals = [this.arrivals.at(-1) ?? 0];
    }
    const events: (CapturedEvent & { time: number })[] = [];
    let at = 0;
    const reader = new EventReader((event) => events.push({ ...event, time: at }));
    const decoder = new TextDecoder();
    chunks.forEach((chunk, k) => {
      at = arrivals[k] ?? 0;
      reader.feed(decoder.decode(chunk, { stream: true }));
    });
    reader.feed(decoder.decode());
    return events;
  }
}
