import type { ServerResponse } from 'node:http';
import type { Answer } from '../http/answer.js';

/**
 * Writes an answer to node:http. A body of bytes goes out in one write with the headers; a stream
 * gets its headers at once (its first event may be long in coming), then each chunk as it comes,
 * waiting for the socket to drain. A stream that fails mid-way (a fault cutting it) ends the
 * connection once what was written has gone out.
 */
export async function writeAnswer(
  res: ServerResponse,
  answer: Answer,
  refused: (error: unknown, answer: Answer) => Answer,
): Promise<void> {
  const { status, body } = answer;
  let { headers } = answer;
  // Text goes out in one write with the headers (bytes would be a second buffer).
  if (typeof body === 'string') headers = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  // node:http refuses a trailer without chunked encoding only as it writes the headers, and a
  // refused writeHead leaves the response half-set: the check is made first.
  if (headers.trailer !== undefined && headers['content-length'] !== undefined) {
    if (body instanceof ReadableStream) body.cancel().catch(() => {});
    return writeAnswer(res, refused(new Error('A trailer header needs a chunked body'), answer), refused);
  }
  res.writeHead(status, answer.headerList ? [...answer.headerList] : headers);
  if (!(body instanceof ReadableStream)) {
    res.end(body ?? undefined);
    return;
  }
  if (headers['content-length'] === undefined) res.flushHeaders();
  const reader = body.getReader();
  // The client left: the body's source learns it from the cancel (an A2A stream stops following its run).
  const onClose = () => {
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  let written: Promise<void> = Promise.resolve();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (res.destroyed) return;
      const chunk = next.value;
      written = new Promise((resolve) => res.write(chunk, () => resolve()));
      if (res.writableNeedDrain) await drained(res);
    }
    res.end();
  } catch {
    await written;
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
