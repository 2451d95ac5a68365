import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors.js';

/** Reads a request body as UTF-8, refusing (413) one larger than `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<string> | string {
  // Without Content-Length or Transfer-Encoding an HTTP/1.1 request has no body (RFC 9112 6.3).
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
    return '';
  // Past this much the connection is cut instead of drained, so a huge upload cannot tie the server up.
  const drainLimit = Math.max(limit * 4, 16 * 1024 * 1024);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > drainLimit) req.destroy();
    });
    req.on('end', () => {
      if (size > limit)
        reject(new HttpError(413, `Request body larger than ${limit} bytes`, {}, 'PAYLOAD_TOO_LARGE'));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete)
        reject(new HttpError(400, 'The request body was not completely received', {}, 'INCOMPLETE_BODY'));
    });
  });
}
