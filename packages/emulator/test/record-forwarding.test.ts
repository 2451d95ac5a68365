import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Cassette, startEmulator } from '@dataworkz/emulator';
import { rawRequest } from '@dataworkz/measure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What reaches the deployment, as a deployment sees it: a server on loopback that echoes each request.
const key = 'forwarded-key-41c7';
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const tls = {
  cert: readFileSync(new URL('./support/tls/loopback.crt', import.meta.url)),
  key: readFileSync(new URL('./support/tls/loopback.key', import.meta.url)),
};

interface Echo {
  method: string;
  url: string;
  host: string;
  authorization: string;
  body: string;
}

/** A promise with its resolve, for an event that happens once. */
function happening(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A deployment under `/base`: echoes requests, streams two events on demand, and holds a stream open. */
function deployment() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let closed: () => void = () => {};
  const holdClosed = new Promise<void>((resolve) => {
    closed = resolve;
  });
  /** Bytes of `/base/api/flood` the connection has taken so far. */
  let flooded = 0;
  /** The flood's events: the first write the connection did not take at once, and half of it taken. */
  const flood = { blocked: happening(), half: happening() };
  /** Every request target the deployment received. */
  const seen: string[] = [];
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.url ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = req.url?.split('?')[0];
    if (path === '/base/api/flood') {
      // Writes 32 MiB as fast as the connection takes it.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const piece = Buffer.alloc(64 * 1024, 120);
      while (flooded < floodBytes) {
        flooded += piece.length;
        if (flooded >= floodBytes / 2) flood.half.resolve();
        if (!res.write(piece)) {
          flood.blocked.resolve();
          await once(res, 'drain');
        }
      }
      res.end();
      return;
    }
    if (path === '/base/api/stream' || path === '/base/api/hold') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
      if (path === '/base/api/hold') {
        res.on('close', () => closed());
        return;
      }
      await released;
      res.end('data: {"n":2}\n\n');
      return;
    }
    const echo: Echo = {
      method: req.method ?? '',
      url: req.url ?? '',
      host: req.headers.host ?? '',
      authorization: req.headers.authorization ?? '',
      body: Buffer.concat(chunks).toString('utf8'),
    };
    const text = JSON.stringify(echo);
    res.writeHead(201, [
      'Content-Type',
      'application/json',
      'Content-Length',
      String(Buffer.byteLength(text)),
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
      'X-Trace',
      'trace-7',
      'X-Trace',
      'trace-8',
    ]);
    res.end(text);
  };
  return {
    handler,
    release,
    holdClosed,
    flooded: () => flooded,
    floodBlocked: flood.blocked.promise,
    floodHalf: flood.half.promise,
    seen,
  };
}

async function listen(server: Server, scheme: 'http' | 'https'): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const auth = { authorization: `SSWS ${key}` };
const floodBytes = 32 * 1024 * 1024;

describe('record mode, what the deployment receives and the caller gets', () => {
  let dir: string;
  let cassettePath: string;
  let upstream: Server;
  let origin: string;
  let fake: ReturnType<typeof deployment>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dwz-forward-'));
    cassettePath = join(dir, 'forward.har');
    fake = deployment();
    upstream = createServer((req, res) => void fake.handler(req, res));
    origin = await listen(upstream, 'http');
  });
  afterAll(async () => {
    upstream.closeAllConnections();
    upstream.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('forwards under the base URL’s path, with its host, the credential and the body, and returns the answer unchanged', async () => {
    const recorder = await startEmulator({ record: `${origin}/base/`, cassette: cassettePath });
    try {
      const got = await fetch(`${recorder.url}/api/echo?x=1&y=two`, { headers: auth });
      expect(got.status).toBe(201);
      expect(got.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
      expect(got.headers.get('x-trace')).toBe('trace-7, trace-8');
      const echo = (await got.json()) as Echo;
      expect(echo).toMatchObject({
        method: 'GET',
        url: '/base/api/echo?x=1&y=two',
        host: new URL(origin).host,
        authorization: `SSWS ${key}`,
        body: '',
      });

      const body = JSON.stringify({ question: 'How do I reset my password?', n: [1, 2, 3] });
      const posted = (await (
        await fetch(`${recorder.url}/api/echo`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body,
        })
      ).json()) as Echo;
      expect(posted).toMatchObject({ method: 'POST', url: '/base/api/echo', body });

      // A body sent in pieces of unknown length arrives whole too.
      const pieces = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"part":'));
          controller.enqueue(new TextEncoder().encode('"two"}'));
          controller.close();
        },
      });
      const chunked = (await (
        await fetch(`${recorder.url}/api/echo`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json' },
          body: pieces,
          duplex: 'half',
        } as RequestInit)
      ).json()) as Echo;
      expect(chunked).toMatchObject({ method: 'PUT', body: '{"part":"two"}' });
    } finally {
      await recorder.close();
    }
    const har = JSON.parse(await readFile(cassettePath, 'utf8')) as Cassette;
    expect(har.log.entries.map((e) => [e.request.method, e.request.url])).toEqual([
      ['GET', `${origin}/base/api/echo?x=1&y=two`],
      ['POST', `${origin}/base/api/echo`],
      ['PUT', `${origin}/base/api/echo`],
    ]);
    const [get, post, put] = har.log.entries;
    expect(get?.response.status).toBe(201);
    // Each header of the answer, repeated ones each on its own (a cookie's value redacted).
    expect(get?.response.headers.filter((h) => h.name === 'set-cookie')).toHaveLength(2);
    expect(get?.response.headers.filter((h) => h.name === 'x-trace')).toEqual([
      { name: 'x-trace', value: 'trace-7' },
      { name: 'x-trace', value: 'trace-8' },
    ]);
    expect(get?.request.queryString).toEqual([
      { name: 'x', value: '1' },
      { name: 'y', value: 'two' },
    ]);
    expect(post?.request.postData?.text).toContain('How do I reset my password?');
    // The request's headers as the caller sent them, from the same raw list the deployment was sent.
    expect(post?.request.headers).toContainEqual({ name: 'content-type', value: 'application/json' });
    expect(post?.request.headers.map((h) => h.name)).not.toContain('connection');
    expect(put?.request.postData?.text).toBe('{"part":"two"}');
    expect(await readFile(cassettePath, 'utf8')).not.toContain(key);
  });

  it('removes dot segments, and refuses a path that leaves the API’s paths without forwarding it', async () => {
    const recorder = await startEmulator({ record: `${origin}/base/`, cassette: join(dir, 'dots.har') });
    /** A raw request target, as sent (fetch would resolve the dot segments itself). */
    const send = (path: string) => rawRequest(recorder.url, path, { headers: auth });
    try {
      fake.seen.length = 0;
      for (const path of [
        '/api/../../tenant-b/admin',
        '/api/%2e%2e/%2E%2e/tenant-b/admin',
        '/api/..%2f..%2ftenant-b/admin',
        '/api/..\\..\\tenant-b/admin',
        '/api/..',
      ]) {
        const refused = await send(path);
        expect(`${path} ${refused.status}`).toBe(`${path} 400`);
        expect(JSON.parse(refused.text)).toMatchObject({ code: 'PATH_OUTSIDE_API' });
      }
      expect(fake.seen).toEqual([]);
      const inside = await send('/api/x/./y/../../echo?q=1');
      expect(inside.status).toBe(201);
      expect((JSON.parse(inside.text) as Echo).url).toBe('/base/api/echo?q=1');
      expect(fake.seen).toEqual(['/base/api/echo?q=1']);
    } finally {
      await recorder.close();
    }
    const recorded = JSON.parse(await readFile(join(dir, 'dots.har'), 'utf8')) as Cassette;
    expect(recorded.log.entries.map((e) => e.request.url)).toEqual([`${origin}/base/api/echo?q=1`]);
  });

  it('records a request header the caller repeated once for each time it was sent, every credential redacted', async () => {
    const path = join(dir, 'repeated.har');
    const recorder = await startEmulator({ record: `${origin}/base`, cassette: path });
    try {
      // fetch joins repeated headers into one line; node:http sends a raw list as it is (Host included).
      const sent = request(`${recorder.url}/api/echo`, {
        headers: [
          'Host',
          new URL(recorder.url).host,
          'Authorization',
          'SSWS first-credential-0123456789',
          'Authorization',
          auth.authorization,
          'X-Asked-By',
          'one',
          'X-Asked-By',
          'two',
        ],
      });
      sent.end();
      const [answer] = (await once(sent, 'response')) as [IncomingMessage];
      answer.resume();
      await once(answer, 'end');
      expect(answer.statusCode).toBe(201);
    } finally {
      await recorder.close();
    }
    // The deployment echoes the first credential (node:http keeps the first of a repeated Authorization):
    // every credential sent is scrubbed, not only the last.
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('first-credential-0123456789');
    expect(text).not.toContain(key);
    const har = JSON.parse(text) as Cassette;
    expect(har.log.entries[0]?.request.headers.filter((h) => h.name === 'x-asked-by')).toEqual([
      { name: 'x-asked-by', value: 'one' },
      { name: 'x-asked-by', value: 'two' },
    ]);
  });

  it('passes a stream on event by event: the first reaches the caller before the deployment sends the next', async () => {
    const recorder = await startEmulator({ record: `${origin}/base`, cassette: join(dir, 'stream.har') });
    try {
      const response = await fetch(`${recorder.url}/api/stream`, { method: 'POST', headers: auth });
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      // The deployment holds the second event back until the first has arrived here.
      const first = await reader.read();
      expect(decoder.decode(first.value)).toBe('data: {"n":1}\n\n');
      fake.release();
      let rest = '';
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        rest += decoder.decode(next.value, { stream: true });
      }
      expect(rest).toBe('data: {"n":2}\n\n');
    } finally {
      await recorder.close();
    }
    const har = JSON.parse(await readFile(join(dir, 'stream.har'), 'utf8')) as Cassette;
    expect(har.log.entries[0]?._events?.map((e) => e.data)).toEqual(['{"n":1}', '{"n":2}']);
  });

  it('holds the deployment back while the caller is slow to read, instead of buffering its body', async () => {
    const recorder = await startEmulator({ record: `${origin}/base`, cassette: join(dir, 'flood.har') });
    try {
      const response = await fetch(`${recorder.url}/api/flood`, { headers: auth });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      // The caller reads nothing: the deployment is made to wait long before it has sent all (what the
      // connections' buffers hold, a few MiB), not read on into the recorder's memory. From the first
      // write it has to wait on, the event that would say otherwise is half the flood taken: a
      // recorder reading on into memory takes that in milliseconds on loopback, so a second is watched.
      await fake.floodBlocked;
      const half = await Promise.race([
        fake.floodHalf.then(() => true),
        new Promise<false>((resolve) => setTimeout(resolve, 1000, false)),
      ]);
      expect(half, `the deployment sent ${fake.flooded()} of ${floodBytes} bytes unread`).toBe(false);
      let bytes = 0;
      for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.length;
      expect(bytes).toBe(floodBytes);
    } finally {
      await recorder.close();
    }
  });

  it('stops the deployment’s stream when the caller leaves, and records nothing of it', async () => {
    const path = join(dir, 'left.har');
    const recorder = await startEmulator({ record: `${origin}/base`, cassette: path });
    try {
      const left = new AbortController();
      const response = await fetch(`${recorder.url}/api/hold`, { headers: auth, signal: left.signal });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      left.abort();
      await fake.holdClosed;
    } finally {
      await recorder.close();
    }
    expect((JSON.parse(await readFile(path, 'utf8')) as Cassette).log.entries).toEqual([]);
  });
});

describe('record mode against an HTTPS deployment', () => {
  it('forwards over TLS, verifying the deployment’s certificate', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dwz-forward-tls-'));
    const fake = deployment();
    const upstream = createTlsServer(tls, (req, res) => void fake.handler(req, res));
    const origin = await listen(upstream, 'https');
    // The command, so the certificate can be trusted as a deployment's CA is: NODE_EXTRA_CA_CERTS.
    const cassette = join(dir, 'tls.har');
    const child = spawn(
      process.execPath,
      ['bin/dataworkz-emulator.js', '--port', '0', '--record', `${origin}/base`, '--cassette', cassette],
      {
        cwd: packageDir,
        stdio: 'pipe',
        env: {
          ...process.env,
          NODE_EXTRA_CA_CERTS: fileURLToPath(new URL('./support/tls/loopback.crt', import.meta.url)),
        },
      },
    );
    try {
      let stdout = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          stdout += d;
          const found = /^export DATAWORKZ_BASE_URL=(http:\/\/\S+)$/m.exec(stdout)?.[1];
          if (found) resolve(found);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const echo = (await (
        await fetch(`${url}/api/echo?x=1`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: '{"over":"tls"}',
        })
      ).json()) as Echo;
      expect(echo).toMatchObject({
        url: '/base/api/echo?x=1',
        host: new URL(origin).host,
        authorization: `SSWS ${key}`,
        body: '{"over":"tls"}',
      });
      child.kill('SIGTERM');
      await once(child, 'exit');
      const har = JSON.parse(await readFile(cassette, 'utf8')) as Cassette;
      expect(har.log.entries.map((e) => e.request.url)).toEqual([`${origin}/base/api/echo?x=1`]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      upstream.closeAllConnections();
      upstream.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
