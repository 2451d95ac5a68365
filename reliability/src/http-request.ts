import { request as httpRequest } from 'node:http';

export interface PlainAnswer {
  status: number;
  contentType: string;
  text: string;
}

export interface PlainRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
}

/**
 * One request on a connection of its own, closed after the answer (no keep-alive pool), so the
 * descriptors a server holds afterwards are its own and not the caller's idle connections.
 */
export function plainRequest(url: string, init: PlainRequest = {}): Promise<PlainAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        agent: false,
        timeout: init.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'] ?? '',
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error(`no answer from ${init.method ?? 'GET'} ${url}`)),
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}
