import type { IncomingMessage } from 'node:http';
import { BoundedBody, incomplete, noBody, type ReceivedBody } from '../http/body.js';

/** Reads a node:http request body, keeping at most `limit` bytes; a larger one is refused (413) but still counted. */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<ReceivedBody> | ReceivedBody {
  // Without Content-Length or Transfer-Encoding an HTTP/1.1 request has no body (RFC 9112 6.3).
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
    return noBody;
  return new Promise((resolve) => {
    const bounded = new BoundedBody(limit);
    let settled = false;
    const settle = (refusal?: ReturnType<typeof incomplete>) => {
      if (settled) return;
      settled = true;
      resolve(bounded.result(refusal));
    };
    req.on('data', (chunk: Buffer) => {
      if (!bounded.add(chunk)) req.destroy();
    });
    req.on('end', () => settle());
    req.on('error', () => settle(incomplete()));
    req.on('close', () => {
      if (!req.complete) settle(incomplete());
    });
  });
}
