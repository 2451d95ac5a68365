import { createHash, type Hash } from 'node:crypto';
import { type Redaction, SCRUB_MARGIN_BYTES } from '@dataworkz/redaction';
import { captureBody } from '../../capture/body.js';
import { isTextual, mediaTypeOf } from '../../capture/media-type.js';
import { bodyText, redactBody } from '../../capture/redact.js';
import { nodeDecoder } from '../content-coding.js';

/**
 * A body as it passes the recorder: its bytes up to the limit and a margin (so that a secret the cut
 * would split is still whole when redacted), its size, and its SHA-256 once it may be needed (a body
 * that is not text, or one past the limit).
 */
export class BodyCapture {
  readonly chunks: Buffer[] = [];
  bytes = 0;
  private kept = 0;
  private hash: Hash | undefined;
  private digest: string | undefined;

  constructor(
    private readonly maxBytes: number,
    hashFromStart: boolean,
  ) {
    if (hashFromStart) this.hash = createHash('sha256');
  }

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.hash === undefined && this.bytes > this.maxBytes) {
      // Past the limit: the body may not be kept, so its hash is taken from the first byte.
      this.hash = createHash('sha256');
      for (const kept of this.chunks) this.hash.update(kept);
    }
    this.hash?.update(chunk);
    if (this.kept < this.maxBytes + SCRUB_MARGIN_BYTES) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
    }
  }

  /** Whether every byte is kept. */
  get whole(): boolean {
    return this.kept === this.bytes;
  }

  /** The SHA-256 (hex) of every byte pushed: taken once, asked for as often as needed. */
  sha256(): string {
    this.digest ??= (this.hash ?? createHash('sha256').update(Buffer.concat(this.chunks))).digest('hex');
    return this.digest;
  }
}

/** A HAR body (`postData` or `content`): text, base64 text, or, when it is not kept, its size and hash. */
export interface RecordedBody {
  size: number;
  text?: string;
  encoding?: string;
  /** HAR's `content.compression`: bytes saved by the content encoding the body came in. */
  compression?: number;
  /** The SHA-256 (hex) of the body's bytes as sent, when they are not kept. */
  _sha256?: string;
  comment?: string;
}

export interface BodyOptions {
  contentType: string;
  contentEncoding: string;
  maxBytes: number;
  /** Keep a body the policy cannot read (binary, JSON past the limit) anyway, scrubbed of known secrets. */
  keepUnreadable: boolean;
}

/** The bytes of a whole body decoded from its content encoding; undefined if they cannot be (or are too many). */
export function decodeBody(bytes: Buffer, contentEncoding: string, maxBytes: number): Buffer | undefined {
  const coding = contentEncoding.trim().toLowerCase();
  if (coding === '' || coding === 'identity') return bytes;
  const decoded = nodeDecoder(maxBytes)(bytes, coding);
  return decoded && Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength);
}

/**
 * The body as a cassette keeps it: decoded from its content encoding, captured (its media type,
 * charset, byte-order mark, form fields or multipart parts read) and redacted whole, then cut to the
 * limit. A body the policy cannot read (not text, an unknown charset, JSON cut by the limit, an
 * encoding it cannot decode) is kept as its size and SHA-256 only, unless `keepUnreadable` asks for
 * its bytes.
 */
export function recordedBody(capture: BodyCapture, redaction: Redaction, options: BodyOptions): RecordedBody {
  const { maxBytes } = options;
  const sent = Buffer.concat(capture.chunks);
  const decoded = capture.whole ? decodeBody(sent, options.contentEncoding, maxBytes) : undefined;
  const encoded = !/^(identity)?$/i.test(options.contentEncoding.trim());
  const compression = decoded && encoded ? { compression: decoded.length - capture.bytes } : {};
  const size = decoded?.length ?? capture.bytes;
  if (size === 0) return { size: 0, text: '' };
  const unreadable = (why: string): RecordedBody => {
    if (options.keepUnreadable && (decoded || !encoded)) {
      const bytes = redaction.bytes(decoded ?? sent).subarray(0, maxBytes);
      return { size, text: Buffer.from(bytes).toString('base64'), encoding: 'base64', ...compression };
    }
    return { size: capture.bytes, _sha256: capture.sha256(), comment: `Not recorded: ${why}.` };
  };
  if (!decoded && encoded)
    return unreadable(`its content encoding ${options.contentEncoding} could not be decoded`);
  const bytes = decoded ?? sent;
  const body = redactBody(
    captureBody({ bytes, size, type: mediaTypeOf(options.contentType), sha256: () => capture.sha256() }),
    redaction,
  );
  if (body.kind === 'unreadable') return unreadable(body.why);
  const text = bodyText(body);
  if (size <= maxBytes) return { size, text, ...compression };
  if (body.kind === 'text' && body.json && !options.keepUnreadable) {
    return unreadable(`JSON of ${size} bytes, past the limit of ${maxBytes}`);
  }
  return { size, text: cutUtf8(text, maxBytes), ...compression };
}

/** Whether a body of this `Content-Type` is one the redaction reads as text (its hash is taken from the start otherwise). */
export function isText(contentType: string): boolean {
  return isTextual(mediaTypeOf(contentType));
}

/** The text cut to at most `max` bytes of UTF-8, never inside a character. */
function cutUtf8(text: string, max: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= max) return text;
  return new TextDecoder().decode(bytes.subarray(0, max)).replace(/\uFFFD$/, '');
}
