import type { MediaType } from './media-type.js';

/** A body's bytes read as text by its charset, or why they cannot be. */
export type DecodedText = { text: string } | { unreadable: string };

/**
 * The body's text: its byte-order mark first (UTF-8, UTF-16LE, UTF-16BE: the mark wins over the
 * label, as a browser reads it, and is not kept), else its charset parameter, else UTF-8. A charset
 * this runtime cannot decode, or text that still holds NUL characters (UTF-16 labelled otherwise),
 * cannot be read: the redaction could not find a secret in it.
 */
export function decodeText(bytes: Uint8Array, type: MediaType): DecodedText {
  const sniffed = byteOrderMark(bytes);
  const label = sniffed ?? type.parameters.charset ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    return { unreadable: `its charset ${label} is not one the redaction reads` };
  }
  const text = decoder.decode(bytes);
  if (text.includes('\0'))
    return { unreadable: 'text with NUL characters (a charset other than the one declared)' };
  return { text };
}

function byteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}
