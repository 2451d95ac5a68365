import { StreamEventTooLargeError } from '../errors.js';

const LF = 10;
const CR = 13;
const D = 100; // `d`, as in `data:`
const E = 101; // `e`, as in `event:`
const SPACE = 32;
const TAB = 9;
const PLAIN_TYPES = new Set(['event:message', 'event: message', 'event:error', 'event: error']);
const encoder = new TextEncoder();
const decoder = new TextDecoder();
// The SDK's parser keeps the last `data:` line: an empty one makes it drop the event.
const DROP = encoder.encode('data:\n');

/**
 * Hands an event stream to the SDK 0.3.14's parser, which reads the service's events (one `data:`
 * line each) right, but keeps only the last `data:` line of an event, splits lines on LF alone, trims
 * them, and hands every event's data to its JSON-RPC reader whatever the event's type. Chunks pass
 * untouched; only line starts and breaks are looked at. An event the parser would misread gets one
 * more line before its end, as the SSE standard reads it: its `data:` lines joined on one line (a
 * line break in JSON can only stand between tokens), or an empty `data:` that drops it when it is
 * named (other than `message` and `error`) or empty. Lone CRs become LFs. An event past
 * `maxEventBytes` throws StreamEventTooLargeError.
 */
export function sseRepair(
  maxEventBytes: number,
  emit: (bytes: Uint8Array) => void,
  skipped?: (what: string) => void,
) {
  let held: Uint8Array[] = []; // the current event's earlier chunks, for a repair
  let size = 0; // the current event's bytes before this chunk
  let lineStart = true;
  let line = 0; // the current line's first byte, and its bytes before this chunk
  let lineBytes = 0;
  let dataLines = 0;
  let misread = false;
  let cr = false; // the last chunk ended with a CR (now an LF)

  const repair = (event: Uint8Array[]): Uint8Array => {
    let type = '';
    const data: string[] = [];
    for (const text of event
      .map((piece) => decoder.decode(piece, { stream: true }))
      .join('')
      .split('\n')) {
      const colon = text.indexOf(':');
      const field = colon === -1 ? text : text.slice(0, colon);
      const value = colon === -1 ? '' : text.slice(text[colon + 1] === ' ' ? colon + 2 : colon + 1);
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
    }
    decoder.decode();
    const joined = data.join(' ');
    if (type !== '' && type !== 'message' && type !== 'error') skipped?.(`an event of type "${type}"`);
    else if (data.length > 0 && joined.trim() === '') skipped?.('an event with empty data');
    else if (data.length > 0) return encoder.encode(`data: ${joined}\n`);
    return DROP;
  };

  return (next: Uint8Array | undefined): void => {
    if (next === undefined) {
      // A last line cut off drops its event, as a last event without its blank line is read.
      if (!lineStart) emit(encoder.encode('\ndata:\n'));
      else if (misread) emit(repair(held));
      return;
    }
    let chunk = searchable(cr && next[0] === LF ? next.subarray(1) : next);
    cr = chunk[chunk.length - 1] === CR;
    if (chunk.includes(CR)) chunk = searchable(lfOnly(chunk));
    let from = 0; // the current event's start in this chunk
    let out = 0; // what is emitted already
    let pos = 0;
    while (pos < chunk.length) {
      if (lineStart) {
        line = chunk[pos] as number;
        lineBytes = 0;
        if (line === LF) {
          if (misread) {
            if (pos > out) emit(chunk.subarray(out, pos));
            emit(repair([...held, chunk.subarray(from, pos)]));
            out = pos;
          }
          held = [];
          size = 0;
          dataLines = 0;
          misread = false;
          from = ++pos;
          continue;
        }
        if (line === D && ++dataLines > 1) misread = true;
        if (line === SPACE || line === TAB) misread = true;
        lineStart = false;
      }
      const lf = chunk.indexOf(LF, pos);
      const end = lf === -1 ? chunk.length : lf;
      if (lf !== -1) {
        const length = lineBytes + end - pos;
        // `data: x` is 7 bytes at least: a shorter line is empty data, or another field.
        if (line === D && length < 7) misread = true;
        if (
          line === E &&
          (lineBytes > 0 || !PLAIN_TYPES.has(decoder.decode(chunk.subarray(end - length, end))))
        ) {
          misread = true;
        }
        lineStart = true;
      } else lineBytes += end - pos;
      if (size + end - from > maxEventBytes) {
        // The events before this one are delivered first.
        if (from > out) emit(chunk.subarray(out, from));
        throw new StreamEventTooLargeError(maxEventBytes);
      }
      pos = lf === -1 ? end : lf + 1;
    }
    if (from < chunk.length) {
      held.push(chunk.subarray(from));
      size += chunk.length - from;
    }
    if (out < chunk.length) emit(out === 0 ? chunk : chunk.subarray(out));
  };
}

// Node's (and Bun's, Deno's) Buffer finds a byte with memchr, several times faster than a Uint8Array's
// indexOf; it is a view of the same memory. Elsewhere (browsers, edge runtimes) the Uint8Array itself.
const NodeBuffer = (
  globalThis as { Buffer?: { from(b: ArrayBufferLike, at: number, length: number): Uint8Array } }
).Buffer;
function searchable(bytes: Uint8Array): Uint8Array {
  return NodeBuffer ? NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes;
}

/** The bytes with every line break an LF: CR LF as one, a lone CR as one. */
function lfOnly(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte === LF && bytes[i - 1] === CR) continue;
    out[n++] = byte === CR ? LF : byte;
  }
  return out.subarray(0, n);
}
