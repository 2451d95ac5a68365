import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { SCRUB_MARGIN_BYTES } from '@dataworkz/redaction';
import type { ContentDecoder } from '../capture/body.js';

const decoders: Record<string, (bytes: Uint8Array, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * Node's decoder of a whole body's content coding, for the capture: at most `maxBytes` (and the
 * redaction's margin) decoded; a coding it does not know, a corrupt body or a bomb past the limit
 * is undefined (not read).
 */
export function nodeDecoder(maxBytes: number): ContentDecoder {
  return (bytes, coding) => {
    const decode = decoders[coding.trim().toLowerCase()];
    if (!decode) return undefined;
    try {
      return decode(bytes, { maxOutputLength: maxBytes + SCRUB_MARGIN_BYTES });
    } catch {
      return undefined;
    }
  };
}
