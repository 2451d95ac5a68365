import { once } from 'node:events';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { HostileCase, Size } from '../../../runner/case.js';
import { againstClient, allEnded, endless, type HostileHandler, KEY, MiB, summary } from '../harness.js';

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

/** Item 2: an error status with an endless body; the client reads 64 KiB of it and maps the status. */
export const endlessErrorBody: HostileCase = {
  name: '2 500 with an endless body',
  run: (size) => {
    const budget = size === 'quick' ? 64 * MiB : 512 * MiB;
    return againstClient(
      endless(500, { 'content-type': 'text/plain' }, budget),
      { call: 'qna.list', credential: { apiKey: KEY }, maxRetries: 0 },
      (report, server) => ({
        pass: allEnded(report, 'InternalServerError') && (report.outcomes[0]?.bodyChars ?? 0) <= 64 * 1024,
        note: `${summary(report)}, body kept ${report.outcomes[0]?.bodyChars} chars of ${mib(budget)} offered`,
        extra: `server wrote ${mib(server.bytesWritten)}`,
      }),
    );
  },
};

/** Item 2: a 100 MiB JSON error body; the error keeps 64 KiB of it. */
export const hugeJsonErrorBody: HostileCase = {
  name: '2 400 with a 100 MiB JSON body',
  run: (size) => {
    const total = size === 'quick' ? 8 * MiB : 100 * MiB;
    const handler = endless(
      400,
      { 'content-type': 'application/json' },
      total,
      Buffer.alloc(64 * 1024, 0x78),
      '{"message":"',
    );
    return againstClient(handler, { call: 'qna.list', credential: { apiKey: KEY } }, (report, server) => ({
      pass: allEnded(report, 'BadRequestError') && (report.outcomes[0]?.bodyChars ?? 0) <= 64 * 1024,
      note: `${summary(report)}, body kept ${report.outcomes[0]?.bodyChars} chars`,
      extra: `server wrote ${mib(server.bytesWritten)}`,
    }));
  },
};

/** Item 2: a 200 whose body never ends; reading stops at maxResponseBytes, and nothing is retried. */
export const endlessSuccessBody: HostileCase = {
  name: '2 200 with an endless body',
  run: (size) => {
    const budget = size === 'quick' ? 64 * MiB : 1024 * MiB;
    const limit = size === 'quick' ? 8 * MiB : undefined;
    return againstClient(
      endless(200, { 'content-type': 'application/json' }, budget),
      { call: 'qna.list', credential: { apiKey: KEY }, ...(limit ? { maxResponseBytes: limit } : {}) },
      (report, server) => ({
        pass: allEnded(report, 'ResponseTooLargeError') && server.requests === 1,
        note: `${summary(report)} after ${server.requests} request(s), limit ${mib(limit ?? 64 * MiB)}`,
        extra: `server wrote ${mib(server.bytesWritten)}`,
      }),
    );
  },
};

/** Zeros compressed as a stream, so making a bomb never holds what it inflates to. */
async function compressedZeros(encoding: 'gzip' | 'br', total: number): Promise<Buffer> {
  const compressor =
    encoding === 'gzip'
      ? createGzip({ level: 9 })
      : createBrotliCompress({
          params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: 24 },
        });
  const out: Buffer[] = [];
  compressor.on('data', (chunk: Buffer) => out.push(chunk));
  const chunk = Buffer.alloc(MiB);
  for (let written = 0; written < total; written += MiB) {
    if (!compressor.write(chunk)) await once(compressor, 'drain');
  }
  compressor.end();
  await once(compressor, 'end');
  return Buffer.concat(out);
}

const bombs = new Map<string, Buffer>();

/** Item 2: a compressed body that inflates to 1 GiB; reading stops at the default 64 MiB. */
function bomb(encoding: 'gzip' | 'br'): HostileCase {
  return {
    name: `2 ${encoding} bomb`,
    run: async (size: Size) => {
      const inflated = size === 'quick' ? 128 * MiB : 1024 * MiB;
      const key = `${encoding}-${inflated}`;
      const bytes = bombs.get(key) ?? (await compressedZeros(encoding, inflated));
      bombs.set(key, bytes);
      const handler: HostileHandler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
        res.end(bytes);
      };
      return againstClient(handler, { call: 'qna.list', credential: { apiKey: KEY } }, (report, server) => ({
        pass: allEnded(report, 'ResponseTooLargeError') && server.requests === 1,
        note: `${bytes.length} bytes on the wire, ${mib(inflated)} inflated: ${summary(report)} after ${server.requests} request(s)`,
      }));
    },
  };
}

export const gzipBomb = bomb('gzip');
export const brotliBomb = bomb('br');

/** Item 2: tasks/get answered with an endless body; the SDK reads it through the client's cap. */
export const endlessTaskBody: HostileCase = {
  name: '2 getTask with a 400 MiB body',
  run: (size) => {
    const budget = size === 'quick' ? 64 * MiB : 400 * MiB;
    const limit = size === 'quick' ? 8 * MiB : undefined;
    return againstClient(
      endless(200, { 'content-type': 'application/json' }, budget),
      { call: 'getTask', credential: { apiKey: KEY }, ...(limit ? { maxResponseBytes: limit } : {}) },
      (report, server) => ({
        pass: allEnded(report, 'ResponseTooLargeError'),
        note: `${summary(report)}, limit ${mib(limit ?? 64 * MiB)}`,
        extra: `server wrote ${mib(server.bytesWritten)}`,
      }),
    );
  },
};
