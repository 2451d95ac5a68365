import { type Agent, type IncomingHttpHeaders, request } from 'node:http';
import { connect } from 'node:net';

/** One answer as it came off the socket; `status` 0 when the server closed without answering. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  contentType: string;
  text: string;
}

export interface RawRequest {
  method?: string;
  /**
   * Sent as written, a list as that header repeated; a `host` among them is sent instead of the one
   * Node would write.
   */
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /**
   * A kept-alive agent to send through. Without one the request has a connection of its own, closed
   * after the answer, so the descriptors a server holds afterwards are its own and not idle pool sockets.
   */
  agent?: Agent;
  /** The local address the request leaves from (a peer at another address than loopback). */
  localAddress?: string;
  /** No answer within this time fails the request (default 10 s). */
  timeoutMs?: number;
  /** Stop reading a body that is still streaming after this time, and keep what came. */
  cutAfterMs?: number;
}

const ANSWER_TIMEOUT_MS = 10_000;

/**
 * Sends a request node:http can express (any token method, any path as written, dot segments and all,
 * any headers, any body) and reads the whole answer as text. A request reset on a kept-alive socket is
 * sent once more: the server may have been closing that idle socket (its keep-alive time-out passed) as
 * the request went out, and that reset is the socket's, not the server's answer (Node's documentation
 * advises the same retry).
 */
export function rawRequest(
  origin: string | URL,
  path: string,
  init: RawRequest = {},
  retryReset = true,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  const method = init.method ?? 'GET';
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: hostname,
        port,
        method,
        path,
        headers: init.headers,
        setHost: !Object.keys(init.headers ?? {}).some((name) => name.toLowerCase() === 'host'),
        agent: init.agent ?? false,
        timeout: init.timeoutMs ?? ANSWER_TIMEOUT_MS,
        ...(init.localAddress ? { localAddress: init.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            contentType: res.headers['content-type'] ?? '',
            text: Buffer.concat(chunks).toString('utf8'),
          });
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', done);
        res.on('error', reject);
        if (init.cutAfterMs !== undefined) {
          setTimeout(() => {
            outgoing.destroy();
            done();
          }, init.cutAfterMs).unref();
        }
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer to ${method} ${path}`)));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (retryReset && outgoing.reusedSocket && error.code === 'ECONNRESET') {
        rawRequest(origin, path, init, false).then(resolve, reject);
      } else reject(error);
    });
    outgoing.end(init.body);
  });
}

/** Writes raw bytes on a fresh connection (for what node:http refuses to send) and reads the answer. */
export function sendBytes(origin: string | URL, bytes: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => socket.destroy(new Error('no answer to raw bytes')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close before reading everything we wrote; what it answered still counts.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'))));
    socket.end(bytes);
  });
}

function parseAnswer(text: string): RawAnswer {
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
  const split = text.indexOf('\r\n\r\n');
  const headers: IncomingHttpHeaders = {};
  for (const line of (split < 0 ? text : text.slice(0, split)).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const contentType = String(headers['content-type'] ?? '');
  return { status, headers, contentType, text: split < 0 ? '' : text.slice(split + 4) };
}
