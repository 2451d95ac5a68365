import { inspect } from 'node:util';
import Dataworkz, {
  APIConnectionError,
  APIUserAbortError,
  AuthenticationError,
  DataworkzError,
  errorFromResponse,
  InvalidParameterError,
  NotFoundError,
  RedirectError,
} from '@dataworkz/client';
import { until } from '@dataworkz/measure';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Handler, json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
let other: TestServer;

beforeAll(async () => {
  server = await startServer('127.0.0.1');
  // Same machine, another host name: another origin.
  other = await startServer('localhost');
});
afterAll(async () => {
  await server.close();
  await other.close();
});
beforeEach(() => {
  server.requests.length = 0;
  other.requests.length = 0;
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('credentials', () => {
  it('apiKey sends SSWS, token sends Bearer', async () => {
    await new Dataworkz({ baseUrl: server.url, apiKey: 'key-1' }).qna.list();
    await new Dataworkz({ baseUrl: server.url, token: 'jwt.a.b' }).qna.list();
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['SSWS key-1', 'Bearer jwt.a.b']);
  });

  it('a token function is called per request', async () => {
    let n = 0;
    const dw = new Dataworkz({ baseUrl: server.url, token: async () => `jwt-${++n}` });
    await dw.qna.list();
    await dw.agents.list();
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer jwt-1', 'Bearer jwt-2']);
  });

  it('a 401 with a token function refreshes the token and retries once', async () => {
    const calls: boolean[] = [];
    const token = vi.fn(({ refresh }: { refresh: boolean }) => {
      calls.push(refresh);
      return refresh ? 'fresh-token' : 'stale-token';
    });
    server.reply(json(401, { message: 'expired' }));
    const dw = new Dataworkz({ baseUrl: server.url, token, maxRetries: 0 });
    expect(await dw.qna.list()).toEqual({});
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer stale-token',
      'Bearer fresh-token',
    ]);
    expect(calls).toEqual([false, true]);
  });

  it('a second 401 after the refresh is an AuthenticationError', async () => {
    let n = 0;
    server.reply(json(401, {}), json(401, { message: 'still no' }));
    const dw = new Dataworkz({ baseUrl: server.url, token: () => `t${++n}` });
    const error = await dw.qna.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('100 calls that all get a 401 share one refresh, even when a refresh revokes the previous token', async () => {
    let current = 'token-0';
    let refreshes = 0;
    // An identity provider that revokes the previous token on each refresh.
    const token = async ({ refresh }: { refresh: boolean }) => {
      if (refresh) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        current = `token-${++refreshes}`;
      }
      return current;
    };
    const dw = new Dataworkz({ baseUrl: server.url, token, maxRetries: 0 });
    const accept: Handler = (request, res, raw) =>
      (request.headers.authorization === 'Bearer token-1'
        ? json(200, { ok: true })
        : json(401, { message: 'revoked or expired' }))(request, res, raw);
    server.reply(...Array.from({ length: 200 }, () => accept));
    const results = await Promise.all(
      Array.from({ length: 100 }, () => dw.qna.list().catch((e: unknown) => e)),
    );
    expect(results.every((result) => (result as { ok?: boolean }).ok === true)).toBe(true);
    expect(refreshes).toBe(1);
    expect(server.requests).toHaveLength(200);
  });

  it('authorizedFetch refreshes once after a 401, like the methods', async () => {
    const token = ({ refresh }: { refresh: boolean }) => (refresh ? 'fresh' : 'stale');
    server.reply(json(401, {}), json(200, { ok: 1 }));
    const dw = new Dataworkz({ baseUrl: server.url, token });
    const response = await dw.authorizedFetch(`${server.url}/x`, { method: 'POST', body: '{"a":1}' });
    expect(await response.json()).toEqual({ ok: 1 });
    expect(server.requests.map((r) => [r.headers.authorization, r.body])).toEqual([
      ['Bearer stale', '{"a":1}'],
      ['Bearer fresh', '{"a":1}'],
    ]);
  });

  it('a 401 with an API key is not retried', async () => {
    server.reply(json(401, { message: 'bad key' }));
    const error = await new Dataworkz({ baseUrl: server.url, apiKey: 'k' }).qna
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(server.requests).toHaveLength(1);
  });

  it('a token function that throws or returns a bad value is a DataworkzError; nothing is sent', async () => {
    const throwing = new Dataworkz({
      baseUrl: server.url,
      token: () => {
        throw new Error('idp down');
      },
    });
    await expect(throwing.qna.list()).rejects.toThrow('The token function failed.');
    const bad = new Dataworkz({ baseUrl: server.url, token: () => 'a\r\nX-Evil: 1' });
    await expect(bad.qna.list()).rejects.toBeInstanceOf(DataworkzError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('construction', () => {
  it.each([
    [{ apiKey: 'k', token: 't' }, 'either apiKey or token'],
    [{}, 'Missing credential'],
    [{ apiKey: '' }, 'non-empty'],
    [{ apiKey: 'SECRET\r\nx' }, 'not allowed in an HTTP header'],
    [{ token: 'SECRET\nx' }, 'not allowed in an HTTP header'],
    [{ apiKey: 'k', timeout: 0 }, 'timeout'],
    [{ apiKey: 'k', maxRetries: -1 }, 'maxRetries'],
    [{ apiKey: 'k', logLevel: 'loud' as never }, 'logLevel'],
    [{ apiKey: 'k', headers: { 'x-a': 'SECRET\nx' } }, 'not allowed in HTTP'],
    [{ apiKey: 'k', headers: { 'bad name': 'x' } }, 'HTTP token'],
  ])('%j is refused', (options, message) => {
    vi.stubEnv('DATAWORKZ_API_KEY', '');
    const error = (() => {
      try {
        new Dataworkz({ baseUrl: 'https://example.com', ...options });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DataworkzError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('SECRET');
  });

  it.each([
    ['not a url', 'absolute'],
    ['ftp://example.com', 'http or https'],
    ['https://user:secret@example.com', 'user name or password'],
    ['https://example.com/?a=1', 'query'],
  ])('baseUrl %j is refused', (baseUrl, message) => {
    expect(() => new Dataworkz({ baseUrl, apiKey: 'k' })).toThrow(message);
  });

  it('baseUrl and apiKey default to DATAWORKZ_BASE_URL and DATAWORKZ_API_KEY', async () => {
    vi.stubEnv('DATAWORKZ_BASE_URL', `${server.url}/prefix//`);
    vi.stubEnv('DATAWORKZ_API_KEY', 'env-key');
    const dw = new Dataworkz();
    expect(dw.baseUrl).toBe(`${server.url}/prefix`);
    await dw.qna.list();
    expect(server.requests[0]).toMatchObject({ path: '/prefix/api/qna/v1/systems' });
    expect(server.requests[0]?.headers.authorization).toBe('SSWS env-key');
  });

  it('without a base URL anywhere it says what to set', () => {
    vi.stubEnv('DATAWORKZ_BASE_URL', '');
    expect(() => new Dataworkz({ apiKey: 'k' })).toThrow('DATAWORKZ_BASE_URL');
  });
});

describe('redirects', () => {
  it('a redirect to another origin does not carry the Authorization header', async () => {
    server.reply((_request, res) => {
      res.writeHead(302, { location: `${other.url}/landing` });
      res.end();
    });
    other.reply(json(200, { moved: true }));
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'secret-key', headers: { cookie: 'sid=1' } });
    expect(await dw.qna.list()).toEqual({ moved: true });
    expect(server.requests[0]?.headers.authorization).toBe('SSWS secret-key');
    expect(other.requests[0]?.path).toBe('/landing');
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
    expect(other.requests[0]?.headers.cookie).toBeUndefined();
  });

  it('a same-origin redirect keeps it; a 307 keeps the POST body', async () => {
    server.reply(
      (_request, res) => {
        res.writeHead(307, { location: '/moved' });
        res.end();
      },
      json(200, { status: 'OK' }),
    );
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    await dw.agents.respond('a', { userText: 'u', llmProviderId: 'l', contextValues: { x: 1 } });
    expect(server.requests[1]).toMatchObject({
      method: 'POST',
      path: '/moved',
      body: '{"contextValues":{"x":1}}',
    });
    expect(server.requests[1]?.headers.authorization).toBe('SSWS k');
  });

  it('authorizedFetch does not carry it across origins either', async () => {
    server.reply((_request, res) => {
      res.writeHead(301, { location: `${other.url}/x` });
      res.end();
    });
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    await dw.authorizedFetch(`${server.url}/api/agents/v1/`);
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('redirects the client refuses', () => {
  it('a redirect to a data: URL is a RedirectError, sent once, never resolved as data', async () => {
    server.reply((_request, res) => {
      res.writeHead(302, { location: 'data:application/json,{"injected":true}' });
      res.end();
    });
    const error = await new Dataworkz({ baseUrl: server.url, apiKey: 'k' }).qna
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).message).toMatch(/data: URL; only http and https/);
    expect(server.requests).toHaveLength(1);
  });

  it('a Location that is not a URL is a RedirectError, not retried', async () => {
    server.reply((_request, res) => {
      res.writeHead(302, { location: 'http://[not-an-ip' });
      res.end();
    });
    const error = await new Dataworkz({ baseUrl: server.url, apiKey: 'k' }).qna
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(server.requests).toHaveLength(1);
  });

  it('x-api-key and api-key headers are dropped on a cross-origin redirect', async () => {
    server.reply((_request, res) => {
      res.writeHead(302, { location: `${other.url}/landing` });
      res.end();
    });
    other.reply(json(200, {}));
    const headers = { 'x-api-key': 'second-key', 'api-key': 'third-key', 'x-trace': 't' };
    await new Dataworkz({ baseUrl: server.url, apiKey: 'k', headers }).qna.list();
    expect(server.requests[0]?.headers).toMatchObject(headers);
    expect(other.requests[0]?.headers['x-api-key']).toBeUndefined();
    expect(other.requests[0]?.headers['api-key']).toBeUndefined();
    expect(other.requests[0]?.headers['x-trace']).toBe('t');
  });
});

describe('per-call headers', () => {
  it('are sent, and a value with CR/LF is refused without repeating it', async () => {
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k', headers: { 'x-a': '1' } });
    await dw.qna.list({ headers: { 'x-b': '2', 'x-a': 'override' } });
    expect(server.requests[0]?.headers).toMatchObject({ 'x-a': 'override', 'x-b': '2' });
    const error = await dw.qna.list({ headers: { 'x-c': 'SECRET\r\nx-d: 1' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataworkzError);
    expect((error as Error).message).not.toContain('SECRET');
    expect(server.requests).toHaveLength(1);
  });
});

describe('per-call options', () => {
  it.each([
    [{ timeout: 0 }, 'timeout'],
    [{ timeout: Number.NaN }, 'timeout'],
    [{ maxRetries: 1.5 }, 'maxRetries'],
    [{ maxRetries: -1 }, 'maxRetries'],
  ])('%j is refused before sending', async (options, parameter) => {
    const error = await new Dataworkz({ baseUrl: server.url, apiKey: 'k' }).qna
      .list(options)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe(parameter);
    expect(server.requests).toHaveLength(0);
  });
});

describe('redirect limits and browsers', () => {
  const KEY = 'hop-secret-key-0123';
  const redirectTo =
    (location: string, status = 302): Handler =>
    (_request, res) => {
      res.writeHead(status, { location });
      res.end();
    };
  /** Every view of an error a log or a crash report might show. */
  const views = (error: unknown): string =>
    [
      (error as Error).message,
      (error as Error).stack,
      JSON.stringify(error),
      inspect(error, { depth: 8 }),
    ].join('\n');

  it('a redirect loop ends after 5 hops with a RedirectError naming them, not retried', async () => {
    server.reply(...Array.from({ length: 6 }, (_, n) => redirectTo(`/hop-${n + 1}?api_key=${KEY}&n=${n}`)));
    const error = await new Dataworkz({ baseUrl: server.url, apiKey: KEY, maxRetries: 3 }).qna
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status: 302, attempts: 1 });
    expect((error as Error).message).toBe(
      'Too many redirects (the client follows at most 5): /api/qna/v1/systems → /hop-1 → /hop-2 → ' +
        '/hop-3 → /hop-4 → /hop-5, then a 302 to /hop-6, not followed.',
    );
    expect(server.requests.map((r) => r.path)).toEqual([
      '/api/qna/v1/systems',
      '/hop-1',
      '/hop-2',
      '/hop-3',
      '/hop-4',
      '/hop-5',
    ]);
    // The query the Location carried reached the server, but not the error.
    expect(server.requests[5]?.query).toContain(KEY);
    const text = views(error);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('api_key');
    expect(text).not.toContain('SSWS');
  });

  it('a chain of exactly 5 redirects is followed to its end', async () => {
    server.reply(
      ...Array.from({ length: 5 }, (_, n) => redirectTo(`/step-${n + 1}`, n % 2 ? 307 : 301)),
      json(200, { arrived: true }),
    );
    expect(await new Dataworkz({ baseUrl: server.url, apiKey: KEY }).qna.list()).toEqual({ arrived: true });
    expect(server.requests).toHaveLength(6);
    expect(server.requests[5]).toMatchObject({ path: '/step-5', headers: { authorization: `SSWS ${KEY}` } });
  });

  it('a hop to another origin is named with its origin, without its fragment', async () => {
    server.reply(
      ...Array.from({ length: 4 }, () => redirectTo('/same')),
      redirectTo(`${other.url}/elsewhere#${KEY}`),
    );
    other.reply(redirectTo('/still-elsewhere'));
    const error = await new Dataworkz({ baseUrl: server.url, apiKey: KEY }).qna
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as Error).message).toBe(
      'Too many redirects (the client follows at most 5): /api/qna/v1/systems → /same → /same → /same → ' +
        `/same → ${other.url}/elsewhere, then a 302 to ${other.url}/still-elsewhere, not followed.`,
    );
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
    expect(views(error)).not.toContain(KEY);
  });

  it.each([
    ['as it is', `/echo/${KEY}`],
    ['percent-encoded', `/echo/${[...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`],
  ])('a credential the server puts in a path (%s) is redacted from the hops', async (_how, path) => {
    for (const call of [
      (dw: Dataworkz) => dw.qna.list(),
      (dw: Dataworkz) => dw.authorizedFetch(`${server.url}/api/agents/v1/`),
      // dw.raw throws what the pipeline throws, without the retry loop's redaction.
      (dw: Dataworkz) => dw.raw.GET('/api/agents/v1/'),
    ]) {
      server.requests.length = 0;
      server.reply(...Array.from({ length: 6 }, () => redirectTo(path)));
      const error = await call(new Dataworkz({ baseUrl: server.url, apiKey: KEY })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      expect((error as Error).message).toContain('[redacted]');
      expect(views(error)).not.toContain(KEY);
      expect(server.requests).toHaveLength(6);
    }
  });

  it('a very long Location is shortened in the message', async () => {
    const long = `/${'x'.repeat(5_000)}`;
    server.reply(...Array.from({ length: 6 }, () => redirectTo(long)));
    const error = await new Dataworkz({ baseUrl: server.url, apiKey: KEY }).qna
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as Error).message.length).toBeLessThan(1_000);
    expect((error as Error).message).toContain(`/${'x'.repeat(119)}…`);
  });

  it('a browser-style opaque redirect is followed by the platform', async () => {
    // Node never answers a manual redirect opaquely; only a stand-in fetch can.
    const calls: RequestRedirect[] = [];
    const fetch = async (request: Request): Promise<Response> => {
      calls.push(request.redirect);
      if (request.redirect === 'manual') return { type: 'opaqueredirect', status: 0 } as Response;
      return globalThis.fetch(request);
    };
    server.reply(json(200, { followed: true }));
    expect(await new Dataworkz({ baseUrl: server.url, apiKey: 'k', fetch }).qna.list()).toEqual({
      followed: true,
    });
    expect(calls).toEqual(['manual', 'follow']);
  });
});

describe('custom fetch and raw middleware', () => {
  it('the fetch option carries every request', async () => {
    const seen: string[] = [];
    const fetch = (request: Request) => {
      seen.push(request.url);
      return globalThis.fetch(request);
    };
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k', fetch });
    await dw.qna.list();
    await dw.authorizedFetch(`${server.url}/x`);
    await dw.raw.GET('/api/agents/v1/');
    expect(seen).toEqual([
      `${server.url}/api/qna/v1/systems`,
      `${server.url}/x`,
      `${server.url}/api/agents/v1/`,
    ]);
  });

  it('a raw middleware may replace the request, body included', async () => {
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    dw.raw.use({
      onRequest: ({ request }) =>
        new Request(request, { headers: { 'x-added': 'yes', 'content-type': 'application/json' } }),
    });
    await dw.raw.POST('/api/agents/v1/{agentId}/response', {
      params: { path: { agentId: 'a' }, query: { userText: 'u', llmProviderId: 'l' } },
      body: { contextValues: { a: 1 } },
    });
    expect(server.requests[0]).toMatchObject({ method: 'POST', body: '{"contextValues":{"a":1}}' });
    expect(server.requests[0]?.headers).toMatchObject({ 'x-added': 'yes', authorization: 'SSWS k' });
  });
});

describe('authorizedFetch', () => {
  it('sends the credential and default headers and returns the response', async () => {
    server.reply((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {}\n\n');
    });
    const dw = new Dataworkz({ baseUrl: server.url, token: async () => 'jwt', headers: { 'x-team': 'sdk' } });
    const response = await dw.authorizedFetch(new URL(`${server.url}/api/agents/v1/a2a/a/stream?llmId=l`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-a2a-extensions': 'https://e/v1' },
      body: '{"jsonrpc":"2.0"}',
    });
    expect(await response.text()).toBe('data: {}\n\n');
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/agents/v1/a2a/a/stream',
      query: 'llmId=l',
      body: '{"jsonrpc":"2.0"}',
    });
    expect(server.requests[0]?.headers).toMatchObject({
      authorization: 'Bearer jwt',
      'x-team': 'sdk',
      'x-a2a-extensions': 'https://e/v1',
    });
  });

  it('is usable detached from the client', async () => {
    const { authorizedFetch } = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    expect((await authorizedFetch(`${server.url}/x`)).status).toBe(200);
  });

  it('maps a non-2xx to the typed error with the parsed body and request id, without retrying', async () => {
    server.reply(json(404, { message: 'No agent' }, { 'x-request-id': 'r-9' }));
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    const error = await dw
      .authorizedFetch(`${server.url}/api/agents/v1/a2a/x/stream`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, body: { message: 'No agent' }, requestId: 'r-9' });
    expect(server.requests).toHaveLength(1);
  });

  it('maps connection failures and aborts', async () => {
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    server.reply((_request, res) => res.socket?.destroy());
    await expect(dw.authorizedFetch(`${server.url}/x`)).rejects.toBeInstanceOf(APIConnectionError);
    server.reply(() => {});
    const controller = new AbortController();
    const pending = dw.authorizedFetch(`${server.url}/y`, { signal: controller.signal });
    await until(() => server.requests.length >= 2, 'the second request reached the server');
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    await expect(
      dw.authorizedFetch(`${server.url}/z`, { signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('errorFromResponse is the same mapping for any response', async () => {
    const error = await errorFromResponse(new Response('{"message":"x"}', { status: 401 }));
    expect(error).toBeInstanceOf(AuthenticationError);
  });
});

describe('raw', () => {
  it('the typed openapi-fetch client sends the credential', async () => {
    server.reply(json(200, { 'sys-1': 'Docs' }));
    const dw = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    const { data, response } = await dw.raw.GET('/api/qna/v1/systems');
    expect(response.status).toBe(200);
    expect(data).toEqual({ 'sys-1': 'Docs' });
    expect(server.requests[0]?.headers.authorization).toBe('SSWS k');
  });
});
