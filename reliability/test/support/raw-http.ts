import { type Agent, request } from 'node:http';
import { connect } from 'node:net';

/** One answer as it came off the socket; `status` 0 when the server closed without answering. */
export interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

const ANSWER_TIMEOUT_MS = 10_000;

/**
 * Sends a request node:http can express (any token method, any path, any body) over a kept-alive agent.
 * A request reset on a kept-alive socket is sent once more: the server may have been closing that idle
 * socket (its keep-alive time-out passed) as the request went out, and that reset is the socket's, not
 * the server's answer to the request (Node's documentation advises the same retry).
 */
export function send(agent: Agent, origin: URL, req: RawRequest, retryReset = true): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method: req.method,
        path: req.path,
        headers: req.headers,
        timeout: ANSWER_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'] ?? '',
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer to ${req.method} ${req.path}`)));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (retryReset && outgoing.reusedSocket && error.code === 'ECONNRESET') {
        send(agent, origin, req, false).then(resolve, reject);
      } else reject(error);
    });
    outgoing.end(req.body);
  });
}

/** Writes raw bytes on a fresh connection (for what node:http refuses to send) and reads the answer. */
export function sendBytes(origin: URL, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(origin.port), origin.hostname);
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
  const head = split < 0 ? text : text.slice(0, split);
  const contentType = /^content-type:\s*(.*)$/im.exec(head)?.[1]?.trim() ?? '';
  return { status, contentType, body: split < 0 ? '' : text.slice(split + 4) };
}
