import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors.js';

/** A request body as received: its bytes (at most the limit), its whole size, and why it was refused, if it was. */
export interface ReceivedBody {
  bytes: Buffer;
  /** Bytes received, including any past the limit. */
  size: number;
  /** 413 over the limit, 400 when the peer stopped sending. */
  refusal?: HttpError;
}

const none: ReceivedBody = { bytes: Buffer.alloc(0), size: 0 };

/** Reads a request body, keeping at most `limit` bytes; a larger one is refused (413) but still counted. */
export function readBody(req: IncomingMessage, limit: number): Promise<ReceivedBody> | ReceivedBody {
  // Without Content-Length or Transfer-Encoding an HTTP/1.1 request has no body (RFC 9112 6.3).
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
    return none;
  // Past this much the connection is cut instead of drained, so a huge upload cannot tie the server up.
  const drainLimit = Math.max(limit * 4, 16 * 1024 * 1024);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (refusal?: HttpError) => {
      if (settled) return;
      settled = true;
      const bytes = Buffer.concat(chunks);
      resolve(refusal ? { bytes, size, refusal } : { bytes, size });
    };
    req.on('data', (chunk: Buffer) => {
      const room = limit - size;
      size += chunk.length;
      if (room > 0) chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
      if (size > drainLimit) req.destroy();
    });
    req.on('end', () => {
      settle(
        size > limit
          ? new HttpError(413, `Request body larger than ${limit} bytes`, {}, 'PAYLOAD_TOO_LARGE')
          : undefined,
      );
    });
    req.on('error', () => settle(incomplete()));
    req.on('close', () => {
      if (!req.complete) settle(incomplete());
    });
  });
}

const incomplete = () =>
  new HttpError(400, 'The request body was not completely received', {}, 'INCOMPLETE_BODY');
