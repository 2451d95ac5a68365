import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import Dataworkz, { APIConnectionError, InternalServerError, ResponseTooLargeError } from '@dataworkz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endless } from './support/endless.js';
import { json, startServer, type TestServer } from './support/server.js';

const MiB = 1024 * 1024;
const KiB = 1024;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function client(options: ConstructorParameters<typeof Dataworkz>[0] = {}): Dataworkz {
  return new Dataworkz({
    baseUrl: server.url,
    apiKey: 'bounded-bodies-key',
    backoff: { initialDelayMs: 1, maxDelayMs: 2 },
    ...options,
  });
}

function requestsDuring(): () => number {
  const before = server.requests.length;
  return () => server.requests.length - before;
}

describe('error bodies', () => {
  it('an endless 500 body is read only up to 64 KiB and still maps to InternalServerError', async () => {
    const { handler, sent } = endless(500, { 'content-type': 'text/plain' }, Buffer.alloc(64 * KiB, 'e'));
    server.reply(handler);
    const error = await client({ maxRetries: 0 })
      .qna.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    const body = (error as InternalServerError).body as string;
    expect(body.length).toBe(64 * KiB);
    await sent.closed;
    // Read whole, the body would have run to the 1 GiB budget; socket buffers hold a few MiB at most.
    expect(sent.bytes).toBeLessThan(32 * MiB);
  });

  it('a large JSON error body is kept as its first 64 KiB of text', async () => {
    const message = 'x'.repeat(200 * KiB);
    server.reply(json(400, { message }));
    const error = await client()
      .qna.list()
      .catch((e: unknown) => e);
    expect((error as { body: unknown }).body).toBe(JSON.stringify({ message }).slice(0, 64 * KiB));
  });
});

describe('success bodies', () => {
  it('an endless 200 body stops at maxResponseBytes with ResponseTooLargeError, not retried', async () => {
    const count = requestsDuring();
    const { handler, sent } = endless(
      200,
      { 'content-type': 'application/json' },
      Buffer.alloc(64 * KiB, ' '),
    );
    server.reply(handler);
    const error = await client({ maxResponseBytes: MiB })
      .qna.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ status: 200, maxResponseBytes: MiB, attempts: 1 });
    expect(count()).toBe(1);
    await sent.closed;
    expect(sent.bytes).toBeLessThan(32 * MiB);
  });

  it('a declared Content-Length past the limit is refused before the body is read', async () => {
    server.reply((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(4 * MiB) });
      res.write('{"a":');
      // The rest never comes: a client that waited for it would hang until the time-out.
    });
    const error = await client({ maxResponseBytes: MiB, timeout: 60_000 })
      .qna.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  it('a body cut short of its declared Content-Length is a broken connection, not a JSON error', async () => {
    server.reply((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.end('{"a":1}');
      res.socket?.destroy();
    });
    const error = await client({ maxRetries: 0 })
      .qna.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  it('a Response made by a fetch of the caller is held to the limit, whatever length it declares', async () => {
    // fetch ends a body at its declared length on the wire; a Response built by hand need not.
    const fetch: typeof globalThis.fetch = async () =>
      new Response(JSON.stringify({ a: 'x'.repeat(2 * KiB) }), {
        headers: { 'content-type': 'application/json', 'content-length': '10' },
      });
    await expect(client({ fetch, maxResponseBytes: KiB }).qna.list()).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
  });

  it.each([
    ['gzip', gzipSync(Buffer.alloc(64 * MiB, ' '))],
    [
      'br',
      brotliCompressSync(Buffer.alloc(64 * MiB, ' '), { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
    ],
  ])('a %s bomb inflates only up to the limit', async (encoding, bytes) => {
    // A few hundred bytes to a few dozen KiB on the wire, 64 MiB once inflated.
    expect(bytes.length).toBeLessThan(128 * KiB);
    const count = requestsDuring();
    server.reply((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(bytes);
    });
    const error = await client({ maxResponseBytes: MiB })
      .qna.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(count()).toBe(1);
  });

  it('a per-call maxResponseBytes overrides the client default', async () => {
    server.reply(json(200, { a: 'x'.repeat(2 * KiB) }));
    await expect(client().qna.list({ maxResponseBytes: KiB })).rejects.toBeInstanceOf(ResponseTooLargeError);
    server.reply(json(200, { a: 'x' }));
    await expect(client({ maxResponseBytes: KiB }).qna.list({ maxResponseBytes: 2 * KiB })).resolves.toEqual({
      a: 'x',
    });
  });

  it('a document body is capped only by a per-call maxResponseBytes, while it is read', async () => {
    const { handler } = endless(200, { 'content-type': 'application/pdf' }, Buffer.alloc(64 * KiB, 1));
    server.reply(handler);
    const response = await client().qna.document('sys', { documentId: 'd' }, { maxResponseBytes: MiB });
    await expect(response.arrayBuffer()).rejects.toBeInstanceOf(ResponseTooLargeError);

    server.reply((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(Buffer.alloc(2 * MiB, 2));
    });
    const uncapped = await client({ maxResponseBytes: MiB }).qna.document('sys', { documentId: 'd' });
    expect((await uncapped.arrayBuffer()).byteLength).toBe(2 * MiB);
  });

  it('an invalid maxResponseBytes is refused before anything is sent', () => {
    expect(() => client({ maxResponseBytes: 0 })).toThrow(/maxResponseBytes/);
  });
});

describe('the raw client', () => {
  it('reads at most 64 KiB of an error body and maxResponseBytes of a success body', async () => {
    const dw = client({ maxResponseBytes: MiB });
    const { handler, sent } = endless(503, { 'content-type': 'text/plain' }, Buffer.alloc(64 * KiB, 'r'));
    server.reply(handler);
    const failed = await dw.raw.GET('/api/qna/v1/systems');
    expect(failed.response.status).toBe(503);
    expect(String(failed.error).length).toBe(64 * KiB);
    await sent.closed;
    expect(sent.bytes).toBeLessThan(32 * MiB);

    const big = endless(200, { 'content-type': 'application/json' }, Buffer.alloc(64 * KiB, ' '));
    server.reply(big.handler);
    await expect(dw.raw.GET('/api/qna/v1/systems')).rejects.toBeInstanceOf(ResponseTooLargeError);
  });
});
