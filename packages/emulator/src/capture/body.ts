import { sha256Hex } from '#digests';
import { type CapturedEvent, eventsOf } from './events.js';
import { type CapturedPart, multipartParts } from './forms.js';
import { isEventStream, isTextual, type MediaType } from './media-type.js';
import { decodeText } from './text.js';

/**
 * A body as the capture reads it, once, for every surface: by its media type (parsed), its content
 * coding and its charset. `size` is its size as sent; `cut` says that only its first bytes were kept.
 */
export type CapturedBody =
  | { kind: 'empty'; size: 0 }
  | { kind: 'text'; size: number; cut: boolean; json: boolean; text: string }
  | { kind: 'events'; size: number; cut: boolean; events: CapturedEvent[] }
  /** An `application/x-www-form-urlencoded` body: its text as sent, its fields judged by name when redacted. */
  | { kind: 'form'; size: number; cut: boolean; text: string }
  | { kind: 'multipart'; size: number; boundary: string; parts: CapturedPart[] }
  | {
      kind: 'unreadable';
      size: number;
      /** Why the redaction cannot read it (`a body that is not text`, an unknown charset, ...). */
      why: string;
      /** The SHA-256 (hex) of the bytes kept (all of them unless `cut`). */
      sha256: string;
      /** The bytes decoded from their content coding, when they could be (for `recordUnreadableBodies`). */
      decoded?: Uint8Array;
    };

/** Decodes a whole body from its content coding (`gzip`, `br`, ...); undefined when it cannot. */
export type ContentDecoder = (bytes: Uint8Array, coding: string) => Uint8Array | undefined;

export interface BodyInput {
  /** The bytes kept: all of them, or the first ones when `size` is larger. */
  bytes: Uint8Array;
  /** The body's size as sent. */
  size: number;
  type: MediaType;
  /** The `Content-Encoding` the body came in, if any. */
  contentEncoding?: string | undefined;
  /** How this runtime decodes a content coding; without one, a coded body is unreadable. */
  decode?: ContentDecoder | undefined;
  /** The SHA-256 of the whole body, when the caller has it (the kept bytes may be fewer). */
  sha256?: (() => string) | undefined;
}

/** Reads a body into its captured form: what every surface renders, once it is redacted. */
export function captureBody(input: BodyInput): CapturedBody {
  const { type, size } = input;
  if (size === 0) return { kind: 'empty', size: 0 };
  const hash = input.sha256 ?? (() => sha256Hex(input.bytes));
  const unreadable = (why: string, decoded?: Uint8Array): CapturedBody => ({
    kind: 'unreadable',
    size,
    why,
    sha256: hash(),
    ...(decoded ? { decoded } : {}),
  });
  const cut = input.bytes.length < size;
  let bytes = input.bytes;
  const coding = (input.contentEncoding ?? '').trim().toLowerCase();
  if (coding !== '' && coding !== 'identity') {
    const decoded = cut ? undefined : input.decode?.(bytes, coding);
    if (!decoded) return unreadable(`its content encoding ${coding} could not be decoded`);
    bytes = decoded;
  }
  if (!isTextual(type)) return unreadable(`${type.essence || 'a body'} that is not text`, bytes);
  if (type.essence === 'multipart/form-data') {
    const parts = cut ? undefined : multipartParts(bytes, type);
    if (!parts) return unreadable('a multipart body that does not parse');
    return { kind: 'multipart', size, boundary: type.parameters.boundary ?? '', parts };
  }
  const decoded = decodeText(bytes, type);
  if ('unreadable' in decoded) return unreadable(decoded.unreadable, bytes);
  const { text } = decoded;
  if (isEventStream(type)) return { kind: 'events', size, cut, events: eventsOf(text) };
  if (type.essence === 'application/x-www-form-urlencoded') {
    return { kind: 'form', size, cut, text };
  }
  const start = text.trimStart()[0];
  const json = /json/.test(type.essence) || start === '{' || start === '[';
  return { kind: 'text', size, cut, json, text };
}
