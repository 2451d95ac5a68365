// Bytes of the lines that decide whether the SDK's parser reads an event as the SSE standard would.
const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const D = 100;
const E = 101;
const DATA = [100, 97, 116, 97, 58]; // `data:`
const PLAIN_EVENT_TYPES = new Set(['event:message', 'event: message', 'event:error', 'event: error']);

/** How far a buffer of an event stream is in the one form the SDK's parser reads right. */
export interface Checked {
  /** Bytes up to the end of the last whole event, all of them plain. */
  plainUntil: number;
  /** Something from `plainUntil` on needs reframing (or an event is oversized). */
  needsFraming: boolean;
}

function startsWith(buffer: Searchable, at: number, prefix: readonly number[]): boolean {
  for (let i = 0; i < prefix.length; i++) if (buffer[at + i] !== prefix[i]) return false;
  return true;
}

const decoder = new TextDecoder();

/** A view of the bytes whose `indexOf` finds a byte fast. */
type Searchable = Pick<Uint8Array, 'indexOf' | 'length'> & { readonly [index: number]: number };

// Node's, Bun's and Deno's Buffer finds a byte with memchr, some ten times faster than a Uint8Array's
// indexOf; it is a view of the same memory, made per chunk. Elsewhere (browsers) the Uint8Array's own.
const NodeBuffer = (
  globalThis as {
    Buffer?: { from(buffer: ArrayBufferLike, byteOffset: number, length: number): Searchable };
  }
).Buffer;

function searchable(buffer: Uint8Array): Searchable {
  return NodeBuffer ? NodeBuffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength) : buffer;
}

/**
 * Scans whole lines (LF or CRLF) for what the SDK 0.3.14's parser cannot read as the standard says:
 * a second `data:` line in one event, empty data, a named event other than `message` or `error`, a
 * line starting with white space, a lone CR as a line break, or an event longer than `maxEventBytes`.
 * Plain events (one `data:` line; comments, `id:`, `retry:` and unknown fields, which it skips as the
 * standard does) can be handed to it untouched. Only line starts
 * and line breaks are looked at: the data itself is the SDK's to read.
 */
export function checkPlain(bytes: Uint8Array, maxEventBytes: number): Checked {
  const buffer = searchable(bytes);
  return buffer.indexOf(CR) === -1
    ? checkDataEvents(buffer, maxEventBytes)
    : checkLines(buffer, maxEventBytes);
}

/**
 * The common case, as the service and the SDK's servers write: `data: …` LF LF, event after event. One
 * search per event; anything else is left to the line-by-line check.
 */
function checkDataEvents(buffer: Searchable, maxEventBytes: number): Checked {
  let pos = 0;
  while (pos < buffer.length) {
    if (buffer[pos] !== D) return checkLines(buffer, maxEventBytes);
    const lf = buffer.indexOf(LF, pos);
    if (lf === -1 || lf + 1 === buffer.length) break;
    if (buffer[lf + 1] !== LF || lf - pos < 7 || !startsWith(buffer, pos, DATA)) {
      return checkLines(buffer, maxEventBytes);
    }
    if (lf + 2 - pos > maxEventBytes) return { plainUntil: pos, needsFraming: true };
    pos = lf + 2;
  }
  if (buffer.length - pos > maxEventBytes) return { plainUntil: pos, needsFraming: true };
  return { plainUntil: pos, needsFraming: false };
}

/** Every line, with CR LF or LF breaks. */
function checkLines(buffer: Searchable, maxEventBytes: number): Checked {
  let plainUntil = 0;
  let dataLines = 0;
  let pos = 0;
  let cr = buffer.indexOf(CR);
  for (;;) {
    const lf = buffer.indexOf(LF, pos);
    if (lf === -1) break;
    const end = lf > pos && buffer[lf - 1] === CR ? lf - 1 : lf;
    if (cr !== -1 && cr < pos) cr = buffer.indexOf(CR, pos);
    if (cr !== -1 && cr < end) return { plainUntil, needsFraming: true };
    if (end === pos) {
      // A blank line ends the event.
      if (lf + 1 - plainUntil > maxEventBytes) return { plainUntil, needsFraming: true };
      plainUntil = lf + 1;
      dataLines = 0;
    } else {
      const first = buffer[pos];
      if (first === D) {
        dataLines++;
        // `data: x` is at least 7 bytes; a shorter line is empty data, or not a `data:` field.
        if (dataLines > 1 || end - pos < 7 || !startsWith(buffer, pos, DATA)) {
          return { plainUntil, needsFraming: true };
        }
      } else if (first === E) {
        if (!PLAIN_EVENT_TYPES.has(decoder.decode(Uint8Array.prototype.slice.call(buffer, pos, end)))) {
          return { plainUntil, needsFraming: true };
        }
      } else if (first === SPACE || first === TAB) {
        // The SDK trims lines: ` data: x` would be data to it, and an unknown field to the standard.
        return { plainUntil, needsFraming: true };
      }
      // Comments, `id:`, `retry:` and unknown fields: skipped by the SDK, as by the standard.
    }
    pos = lf + 1;
  }
  // An event still open longer than the cap fails now, not when it ends.
  if (buffer.length - plainUntil > maxEventBytes) return { plainUntil, needsFraming: true };
  return { plainUntil, needsFraming: false };
}
