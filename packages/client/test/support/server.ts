import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as it arrived on the wire. */
interface WireRequest {
  method: string;
  path: string;
  /** The raw query, without `?`. */
  query: string;
  headers: Record<string, string>;
  body: string;
}

export type Handler = (request: WireRequest, res: ServerResponse, raw: IncomingMessage) => void;

/** A loopback HTTP server that records every request and answers from a queue of handlers. */
export interface TestServer {
  url: string;
  requests: WireRequest[];
  /** Queues handlers for the next requests, in order; after the queue, requests get `200 {}`. */
  reply(...handlers: Handler[]): void;
  /** Drops handlers still queued (a request that never arrived leaves its handler behind). */
  clearReplies(): void;
  close(): Promise<void>;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_request, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

export async function startServer(host = '127.0.0.1'): Promise<TestServer> {
  const requests: WireRequest[] = [];
  const queue: Handler[] = [];
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const url = raw.url ?? '/';
      const at = url.indexOf('?');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(raw.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      const request: WireRequest = {
        method: raw.method ?? '',
        path: at === -1 ? url : url.slice(0, at),
        query: at === -1 ? '' : url.slice(at + 1),
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      (queue.shift() ?? json(200, {}))(request, res, raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host === '::1' ? '[::1]' : host}:${port}`,
    requests,
    reply: (...handlers) => queue.push(...handlers),
    clearReplies: () => {
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
