import type { Duplex } from 'node:stream';
import { errorBody } from '../http/errors.js';

/** How long a refused connection may take to flush its answer before it is cut anyway. */
const flushGraceMs = 2000;

/**
 * Answers a request node:http could not parse, or did not receive in time, then destroys the
 * socket: a peer that never reads or closes must not keep the descriptor open.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const late = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = late ? 408 : 400;
  const body = JSON.stringify(
    late
      ? errorBody(408, 'The request was not received in time', '', 'REQUEST_TIMEOUT')
      : errorBody(400, 'Malformed HTTP request', '', 'BAD_REQUEST'),
  );
  const head = `HTTP/1.1 ${status} ${late ? 'Request Timeout' : 'Bad Request'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`;
  const cut = setTimeout(() => socket.destroy(), flushGraceMs);
  cut.unref();
  socket.end(head + body, () => {
    clearTimeout(cut);
    socket.destroy();
  });
}
