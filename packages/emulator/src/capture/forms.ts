import { parseMultipart } from '@remix-run/multipart-parser';
import { sha256Hex } from '#digests';
import { isTextual, type MediaType, mediaTypeOf } from './media-type.js';
import { decodeText } from './text.js';

/** One part of a `multipart/form-data` body: its text, or, when it is not text, its size and hash. */
export interface CapturedPart {
  name: string;
  filename?: string;
  contentType?: string;
  text?: string;
  size: number;
  sha256?: string;
}

/**
 * The parts of a `multipart/form-data` body (@remix-run/multipart-parser), each read as text by its own
 * charset; undefined when the body does not parse as one (no boundary, a broken framing).
 */
export function multipartParts(bytes: Uint8Array, type: MediaType): CapturedPart[] | undefined {
  const boundary = type.parameters.boundary;
  if (!boundary) return undefined;
  try {
    const parts: CapturedPart[] = [];
    for (const part of parseMultipart(bytes, { boundary, maxFileSize: Number.MAX_SAFE_INTEGER })) {
      const contentType = part.headers['content-type'];
      const partType = mediaTypeOf(contentType);
      const decoded = isTextual(partType) ? decodeText(part.bytes, partType) : undefined;
      parts.push({
        name: part.name ?? '',
        ...(part.filename !== undefined ? { filename: part.filename } : {}),
        ...(contentType !== undefined ? { contentType } : {}),
        size: part.size,
        ...(decoded && 'text' in decoded ? { text: decoded.text } : { sha256: sha256Hex(part.bytes) }),
      });
    }
    return parts;
  } catch {
    return undefined;
  }
}

/** Parts written back as a multipart body with the boundary they came with. */
export function multipartText(parts: readonly CapturedPart[], boundary: string): string {
  let out = '';
  for (const part of parts) {
    out += `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.name)}"`;
    if (part.filename !== undefined) out += `; filename="${quoted(part.filename)}"`;
    out += '\r\n';
    if (part.contentType !== undefined) out += `Content-Type: ${part.contentType}\r\n`;
    const value =
      part.text ?? `[${part.size} bytes not recorded: not text, SHA-256 ${part.sha256 ?? 'unknown'}]`;
    out += `\r\n${value}\r\n`;
  }
  return `${out}--${boundary}--\r\n`;
}

function quoted(text: string): string {
  return text.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
}
