import type { ServerResponse } from 'node:http';

/**
 * Writes a Fetch API Response to node:http: the headers at once (a stream's first event may be
 * long in coming), then the body as it comes, waiting for the socket to drain. A body that fails
 * mid-way (a fault cutting it) ends the connection once what was written has gone out.
 */
export async function writeResponse(
  res: ServerResponse,
  response: Response,
  refused: (error: unknown, response: Response) => Response,
): Promise<void> {
  // node:http refuses a trailer without chunked encoding only as it writes the headers, and a
  // refused writeHead leaves the response half-set: the check is made first.
  if (response.headers.has('trailer') && response.headers.has('content-length')) {
    response.body?.cancel().catch(() => {});
    return writeResponse(res, refused(new Error('A trailer header needs a chunked body'), response), refused);
  }
  res.writeHead(response.status, plainHeaders(response));
  const body = response.body;
  if (!body) {
    res.end();
    return;
  }
  if (!response.headers.has('content-length')) res.flushHeaders();
  const reader = body.getReader();
  // The client left: the body's source learns it from the cancel (an A2A stream stops its run).
  const onClose = () => {
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  let written: Promise<void> = Promise.resolve();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      written = new Promise((resolve) => res.write(value, () => resolve()));
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

function plainHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}
