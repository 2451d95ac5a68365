import { inspect } from 'node:util';
import Dataworkz, { type Logger, type LogLevel } from '@dataworkz/client';
import { until } from '@dataworkz/measure';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, startServer, type TestServer } from './support/server.js';

interface Line {
  level: LogLevel;
  message: string;
  data: Record<string, unknown> | undefined;
}

function capture(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: LogLevel) =>
    (message: string, data?: Record<string, unknown>): void => {
      lines.push({ level, message, data });
    };
  return { lines, logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') } };
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('logging', () => {
  it('debug lines show method, URL, status, attempt and time, with credentials and cookies redacted', async () => {
    const { logger, lines } = capture();
    server.reply(json(503, {}, { 'retry-after-ms': '1' }), json(200, {}));
    const dw = new Dataworkz({
      baseUrl: server.url,
      apiKey: 'key-abc',
      logLevel: 'debug',
      logger,
      headers: { cookie: 'sid=cookie-value', 'x-api-key': 'other-key' },
    });
    await dw.qna.search('s', { query: 'q' });
    const debug = lines.filter((line) => line.level === 'debug');
    expect(debug).toHaveLength(2);
    expect(debug[0]?.message).toMatch(
      /^\[dataworkz\] GET http:\/\/127\.0\.0\.1:\d+\/api\/qna\/v1\/systems\/s\/search\?query=q 503 \(attempt 1, \d+ ms\)$/,
    );
    expect(debug[1]?.data).toMatchObject({
      method: 'GET',
      url: `${server.url}/api/qna/v1/systems/s/search?query=q`,
      status: 200,
      attempt: 2,
      durationMs: expect.any(Number),
      headers: { authorization: '[redacted]', cookie: '[redacted]', 'x-api-key': '[redacted]' },
    });
    expect(lines.some((line) => line.level === 'info' && line.message.includes('retrying in 1 ms'))).toBe(
      true,
    );
    const all = JSON.stringify(lines);
    for (const secret of ['key-abc', 'cookie-value', 'other-key']) expect(all).not.toContain(secret);
  });

  it('a failed exchange is logged too', async () => {
    const { logger, lines } = capture();
    server.reply((_request, res) => res.socket?.destroy());
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k', logLevel: 'debug', logger, maxRetries: 0 });
    await expect(dw.qna.list()).rejects.toThrow();
    expect(lines[0]?.message).toMatch(/GET .*\/api\/qna\/v1\/systems failed \(attempt 1, \d+ ms\)/);
  });

  it('DATAWORKZ_LOG sets the level; the option wins; off and the default warn are quiet', async () => {
    const { logger, lines } = capture();
    vi.stubEnv('DATAWORKZ_LOG', 'debug');
    await new Dataworkz({ baseUrl: server.url, apiKey: 'k', logger }).qna.list();
    expect(lines).toHaveLength(1);
    await new Dataworkz({ baseUrl: server.url, apiKey: 'k', logger, logLevel: 'off' }).qna.list();
    vi.stubEnv('DATAWORKZ_LOG', '');
    await new Dataworkz({ baseUrl: server.url, apiKey: 'k', logger }).qna.list();
    expect(lines).toHaveLength(1);
  });

  it('query values named like credentials are redacted in URLs', async () => {
    const { logger, lines } = capture();
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k', logLevel: 'debug', logger });
    await dw.raw.GET('/api/qna/v1/systems', { params: { query: { access_token: 'tok-123' } as never } });
    expect(lines[0]?.message).toContain('access_token=%5Bredacted%5D');
    expect(JSON.stringify(lines)).not.toContain('tok-123');
  });
});

describe('secret hygiene', () => {
  const KEY = 'sk-live-SECRETKEY-0123456789';
  const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.SECRETTOKEN.c2ln';
  const SECRETS = [KEY, TOKEN, 'SECRETKEY', 'SECRETTOKEN'];

  function assertClean(label: string, value: unknown): void {
    const views = [
      String(value),
      JSON.stringify(value),
      inspect(value, { depth: 10, showHidden: true }),
      value instanceof Error ? (value.stack ?? '') : '',
      value instanceof Error ? inspect(value.cause, { depth: 10 }) : '',
    ];
    for (const view of views) {
      for (const secret of SECRETS) {
        if (view.includes(secret)) throw new Error(`${label}: secret found in ${view.slice(0, 200)}`);
      }
    }
  }

  it('no error or log line carries the key or token on any fault path', async () => {
    const { logger, lines } = capture();
    // A hostile or careless server echoes the credential it received.
    let sent = '';
    const echo = (status: number) =>
      json(status, { message: `rejected ${sent}`, headers: { authorization: sent } });
    const withKey = new Dataworkz({
      baseUrl: server.url,
      apiKey: KEY,
      logLevel: 'debug',
      logger,
      maxRetries: 1,
      timeout: 5000,
      backoff: { initialDelayMs: 1 },
    });
    const withToken = new Dataworkz({
      baseUrl: server.url,
      token: async () => TOKEN,
      logLevel: 'debug',
      logger,
      maxRetries: 1,
      timeout: 5000,
      backoff: { initialDelayMs: 1 },
    });
    const errors: Array<[string, unknown]> = [];
    // Each case starts from an empty queue: on a busy machine an attempt can time out before its
    // request reaches the server, and its handler must not answer the next case.
    const run = async (label: string, call: () => Promise<unknown>) => {
      errors.push([
        label,
        await call().then(
          () => new Error(`${label} did not fail`),
          (e: unknown) => e,
        ),
      ]);
      server.clearReplies();
    };
    for (const [dw, secret] of [
      [withKey, KEY],
      [withToken, TOKEN],
    ] as const) {
      sent = secret;
      server.reply(echo(400));
      await run('400 echo', () => dw.qna.list());
      server.reply(echo(401));
      await run('401 echo', () => dw.qna.list());
      server.reply(echo(500), echo(503));
      await run('5xx echo', () => dw.qna.list());
      server.reply(json(200, `{"broken": "${secret}`));
      await run('malformed echo', () => dw.qna.list());
      server.reply(json(200, { status: 'FAILED', failureReason: `bad ${secret}` }));
      await run('FAILED echo', () => dw.qna.search('s', { query: 'q' }));
      server.reply(
        (_request, res) => res.socket?.destroy(),
        (_request, res) => res.socket?.destroy(),
      );
      await run('reset', () => dw.qna.list());
      server.reply(
        () => {},
        () => {},
      );
      const seen = server.requests.length;
      await run('timeout', () => dw.qna.list({ timeout: 100 }));
      // Both attempts' requests land before the next case queues its handlers (bounded wait).
      await until(() => server.requests.length >= seen + 2, 'both attempts reached the server');
      await run('abort', () => dw.qna.list({ signal: AbortSignal.abort() }));
      server.reply(echo(404));
      await run('authorizedFetch 404', () => dw.authorizedFetch(`${server.url}/x`));
      server.reply((_request, res) => res.socket?.destroy());
      await run('authorizedFetch reset', () => dw.authorizedFetch(`${server.url}/x`));
    }
    const construct = (options: ConstructorParameters<typeof Dataworkz>[0]) => () =>
      Promise.resolve().then(() => new Dataworkz({ baseUrl: server.url, ...options }));
    await run('key with CR/LF', construct({ apiKey: `${KEY}\r\n` }));
    await run('key and token', construct({ apiKey: KEY, token: TOKEN }));
    await run('credentials in baseUrl', construct({ baseUrl: `https://u:${KEY}@example.com`, apiKey: 'k' }));
    await run('bad token from function', () =>
      new Dataworkz({ baseUrl: server.url, token: () => `${TOKEN}\n` }).qna.list(),
    );

    expect(errors.length).toBe(24);
    for (const [label, error] of errors) {
      expect(error, label).toBeInstanceOf(Error);
      expect((error as Error).message, label).not.toMatch(/did not fail/);
      assertClean(label, error);
    }
    expect(lines.length).toBeGreaterThan(20);
    assertClean('log lines', lines);
    assertClean('the client with a key', withKey);
    assertClean('the client with a token', withToken);
  });
});
