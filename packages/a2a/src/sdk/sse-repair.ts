import { StreamEventTooLargeError } from '../errors.js';

const [LF, CR, COLON, D] = [10, 13, 58, 100];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Hands an event stream on to the SDK 0.3.14's parser, which splits lines on LF alone, trims them, keeps
 * an event's last `data:` line only, and reads any event's data as a JSON-RPC response. Chunks pass
 * untouched but for line breaks made LFs; an event the SDK would misread gets a last line it reads
 * right: its `data:` lines joined (a line break in JSON stands between tokens only), or an empty
 * `data:`, which drops a named event (not `message` or `error`) or one with empty data.
 */
export function sseRepair(
  maxEventBytes: number,
  emit: (bytes: Uint8Array) => void,
  skipped: (what: string) => void,
) {
  let event: Uint8Array[] = []; // the current event's bytes in earlier chunks
  let size = 0;
  let dataLines = 0;
  let suspect = false;
  let lineStart = true;
  let cr = false; // the last chunk ended with a CR, now an LF

  const repair = (pieces: Uint8Array[]): Uint8Array | undefined => {
    let type = '';
    let indented = false;
    const data: string[] = [];
    // Decoded piece by piece in stream mode: a character split between pieces is read whole.
    const text = pieces.map((piece) => decoder.decode(piece, { stream: true })).join('') + decoder.decode();
    for (const line of text.split('\n')) {
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(line[colon + 1] === ' ' ? colon + 2 : colon + 1);
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
      indented ||= /^\s/.test(line);
    }
    const named = type !== '' && type !== 'message' && type !== 'error';
    const empty = data.join('').trim() === '';
    if (!named && !indented && data.length === 1 && !empty) return undefined;
    if (named) skipped(`an event of type "${type}"`);
    else if (data.length > 0 && empty) skipped('an event with empty data');
    return encoder.encode(named || empty ? 'data:\n' : `data: ${data.join(' ')}\n`);
  };

  return (next: Uint8Array | undefined): void => {
    if (next === undefined) {
      // A last line cut off drops its event; a whole one ends it, as the SDK reads it.
      const fix = lineStart ? suspect && repair(event) : encoder.encode('\ndata:\n');
      if (fix) emit(fix);
      return;
    }
    const bytes = cr && next[0] === LF ? next.subarray(1) : next;
    cr = bytes[bytes.length - 1] === CR;
    let chunk = searchable(bytes);
    if (chunk.includes(CR)) chunk = searchable(lfOnly(bytes));
    let [from, out, pos] = [0, 0, 0];
    while (pos < chunk.length) {
      if (lineStart && chunk[pos] === LF) {
        const fix = suspect && repair([...event, chunk.subarray(from, pos)]);
        if (fix) {
          emit(chunk.subarray(out, pos));
          emit(fix);
          out = pos;
        }
        // Reset in place: this runs for every event of a stream.
        if (event.length > 0) event = [];
        size = 0;
        dataLines = 0;
        suspect = false;
        from = ++pos;
        continue;
      }
      const first = lineStart ? chunk[pos] : -1;
      const lf = chunk.indexOf(LF, pos);
      const end = lf === -1 ? chunk.length : lf;
      // `data: x` is 7 bytes at least: a shorter one is read again. One the chunk cuts is judged by what
      // it shows: ending every chunk's last event on the slow path cost the stream about 4 % of its rate.
      if (first === D ? ++dataLines > 1 || end - pos < 7 : first !== COLON && first !== -1) suspect = true;
      if (size + end - from > maxEventBytes) {
        if (from > out) emit(chunk.subarray(out, from)); // the events before it are read first
        throw new StreamEventTooLargeError(maxEventBytes);
      }
      lineStart = lf !== -1;
      pos = lf === -1 ? chunk.length : lf + 1;
    }
    if (from < chunk.length) event.push(chunk.subarray(from));
    size += chunk.length - from;
    if (out < chunk.length) emit(out === 0 ? chunk : chunk.subarray(out));
  };
}

// Node's (and Bun's, Deno's) Buffer finds a byte with memchr, several times faster than a Uint8Array's
// indexOf, in a view of the same memory. Elsewhere (browsers, edge runtimes) the Uint8Array itself.
const NodeBuffer = (
  globalThis as { Buffer?: { from(b: ArrayBufferLike, at: number, n: number): Uint8Array } }
).Buffer;
function searchable(bytes: Uint8Array): Uint8Array {
  return NodeBuffer ? NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes;
}

/** The bytes with every line break an LF: CR LF as one, a lone CR as one. */
function lfOnly(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === LF && bytes[i - 1] === CR) continue;
    out[n++] = bytes[i] === CR ? LF : (bytes[i] as number);
  }
  return out.subarray(0, n);
}
