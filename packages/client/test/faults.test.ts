import Dataworkz, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  type Logger,
  MalformedResponseError,
  NotFoundError,
  QueryFailedError,
  RateLimitError,
  type RetryEvent,
} from '@dataworkz/client';
import { until } from '@dataworkz/measure';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FaultLedger } from './support/ledger.js';
import { type Handler, json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
const ledger = new FaultLedger();
const infos: Array<Record<string, unknown> | undefined> = [];
const logger: Logger = {
  error: () => {},
  warn: () => {},
  info: (_message, data) => infos.push(data),
  debug: () => {},
};

function client(options: ConstructorParameters<typeof Dataworkz>[0] = {}): Dataworkz {
  return new Dataworkz({
    baseUrl: server.url,
    apiKey: 'k',
    backoff: { initialDelayMs: 1, maxDelayMs: 4 },
    logLevel: 'info',
    logger,
    ...options,
  });
}

const resetBeforeHeaders: Handler = (_request, res) => res.socket?.destroy();
const dropMidBody: Handler = (_request, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
  res.write('{"partial":');
  setImmediate(() => res.socket?.destroy());
};
const neverAnswer: Handler = () => {};
const stallMidBody: Handler = (_request, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"slow":');
};
const ok = json(200, { ok: true });

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  ledger.print('client fault suite');
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  infos.length = 0;
});

async function outcome<T>(fault: string, call: Promise<T>): Promise<unknown> {
  const result = await call.then(
    () => 'success',
    (error: unknown) => error,
  );
  ledger.record(fault, result);
  return result;
}

describe('retries', () => {
  it.each([500, 502, 503, 504])('%i then success is retried', async (status) => {
    server.reply(json(status, { message: 'down' }), ok);
    expect(await outcome(`${status} then 200`, client().qna.list())).toBe('success');
    expect(server.requests).toHaveLength(2);
  });

  it.each([408, 409, 429])('%i is retried', async (status) => {
    server.reply(json(status, {}), ok);
    expect(await outcome(`${status} then 200`, client().qna.list())).toBe('success');
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    [400, BadRequestError],
    [404, NotFoundError],
  ])('%i is not retried', async (status, ErrorClass) => {
    server.reply(json(status, { message: 'no' }));
    const error = await outcome(`${status}`, client().qna.list());
    expect(error).toBeInstanceOf(ErrorClass);
    expect(server.requests).toHaveLength(1);
  });

  it('the deprecated POST is retried too (it is stateless)', async () => {
    server.reply(json(503, {}), json(200, { status: 'OK', data: { answer: 'a' } }));
    const result = await client().agents.respond('a', { userText: 'u', llmProviderId: 'l' });
    expect(result.data?.answer).toBe('a');
    expect(server.requests.map((r) => r.body)).toEqual(['{}', '{}']);
  });

  it('retries run out: the last error carries the attempt count', async () => {
    server.reply(
      json(503, { message: 'down' }),
      json(503, { message: 'down' }),
      json(503, { message: 'still down' }),
    );
    const error = await outcome('503 x3', client().qna.list());
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).attempts).toBe(3);
    expect((error as InternalServerError).message).toBe('503 still down');
    expect(server.requests).toHaveLength(3);
  });

  it('onRetry is told of each retry of the call: the attempt that failed, its error and the wait', async () => {
    server.reply(json(503, { message: 'down' }), json(429, {}), ok);
    const retries: RetryEvent[] = [];
    expect(await client().qna.list({ onRetry: (retry) => retries.push(retry) })).toEqual({ ok: true });
    expect(retries.map(({ attempt, error }) => [attempt, error.name])).toEqual([
      [1, 'InternalServerError'],
      [2, 'RateLimitError'],
    ]);
    expect(retries.every(({ waitMs }) => waitMs >= 0 && waitMs <= 4)).toBe(true);
    // Not called when nothing is retried; a throwing one rejects the call as it is, with no retry.
    server.reply(json(400, {}));
    const none: RetryEvent[] = [];
    await client()
      .qna.list({ onRetry: (retry) => none.push(retry) })
      .catch(() => undefined);
    expect(none).toEqual([]);
    server.requests.length = 0;
    server.reply(json(503, {}));
    const bug = new TypeError('bug in the caller');
    const thrown = await client()
      .qna.list({
        onRetry() {
          throw bug;
        },
      })
      .catch((error: unknown) => error);
    expect(thrown).toBe(bug);
    expect(server.requests).toHaveLength(1);
  });

  it('maxRetries per client and per call', async () => {
    server.reply(json(503, {}), json(503, {}), json(503, {}), json(503, {}), json(503, {}));
    const error = await outcome('503 (maxRetries 0)', client().qna.list({ maxRetries: 0 }));
    expect((error as InternalServerError).attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
    const more = await outcome('503 (maxRetries 3)', client({ maxRetries: 3 }).qna.list());
    expect((more as InternalServerError).attempts).toBe(4);
    expect(server.requests).toHaveLength(5);
  });

  it('x-should-retry: true retries a 400; false stops a 503', async () => {
    server.reply(json(400, {}, { 'x-should-retry': 'true' }), ok);
    expect(await outcome('400 x-should-retry: true', client().qna.list())).toBe('success');
    expect(server.requests).toHaveLength(2);
    server.reply(json(503, {}, { 'x-should-retry': 'false' }));
    const error = await outcome('503 x-should-retry: false', client().qna.list());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(3);
  });
});

describe('Retry-After', () => {
  it('in seconds', async () => {
    server.reply(json(429, {}, { 'retry-after': '1' }), ok);
    expect(await outcome('429 Retry-After: 1', client().qna.list())).toBe('success');
    expect(infos[0]).toMatchObject({ waitMs: 1000, retry: 1 });
  });

  it('as an HTTP date', async () => {
    const date = new Date(Date.now() + 2000).toUTCString();
    server.reply(json(429, {}, { 'retry-after': date }), ok);
    expect(await outcome('429 Retry-After: <date>', client().qna.list())).toBe('success');
    const wait = infos[0]?.waitMs as number;
    // HTTP dates have one-second resolution.
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(2000);
  });

  it('retry-after-ms wins', async () => {
    server.reply(json(429, {}, { 'retry-after-ms': '25', 'retry-after': '30' }), ok);
    expect(await outcome('429 retry-after-ms: 25', client().qna.list())).toBe('success');
    expect(infos[0]).toMatchObject({ waitMs: 25 });
  });

  it('an absurd Retry-After falls back to the backoff', async () => {
    server.reply(json(429, {}, { 'retry-after': '3600' }), ok);
    expect(await outcome('429 Retry-After: 3600', client().qna.list())).toBe('success');
    expect(infos[0]?.waitMs as number).toBeLessThanOrEqual(4);
  });

  it('a 429 that stays gives RateLimitError', async () => {
    server.reply(json(429, {}, { 'retry-after-ms': '1' }), json(429, {}, { 'retry-after-ms': '1' }));
    const error = await outcome('429 x2', client({ maxRetries: 1 }).qna.list());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).attempts).toBe(2);
  });
});

describe('connections', () => {
  it('reset before headers, then success', async () => {
    server.reply(resetBeforeHeaders, ok);
    expect(await outcome('reset before headers, then 200', client().qna.list())).toBe('success');
    expect(server.requests).toHaveLength(2);
  });

  it('reset before headers every time gives APIConnectionError', async () => {
    server.reply(resetBeforeHeaders, resetBeforeHeaders, resetBeforeHeaders);
    const error = await outcome('reset before headers x3', client().qna.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).attempts).toBe(3);
  });

  it('dropped mid-body, then success', async () => {
    server.reply(dropMidBody, ok);
    expect(await outcome('dropped mid-body, then 200', client().qna.list())).toBe('success');
  });

  it('dropped mid-body every time gives APIConnectionError', async () => {
    server.reply(dropMidBody, dropMidBody);
    const error = await outcome('dropped mid-body x2', client({ maxRetries: 1 }).qna.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('connection refused gives APIConnectionError', async () => {
    const closed = await startServer();
    const url = closed.url;
    await closed.close();
    const dw = new Dataworkz({ baseUrl: url, apiKey: 'k', maxRetries: 1, backoff: { initialDelayMs: 1 } });
    const error = await outcome('connection refused', dw.qna.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).attempts).toBe(2);
  });
});

describe('time-outs', () => {
  it('before headers', async () => {
    // A server of its own, closed with the test: on a loaded machine the call can give up before the
    // server has read its request, which the shared server would then count in the next test.
    const own = await startServer();
    try {
      own.reply(neverAnswer);
      const error = await outcome(
        'no answer (timeout 50 ms)',
        client({ baseUrl: own.url, timeout: 50, maxRetries: 0 }).qna.list(),
      );
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    } finally {
      await own.close();
    }
  });

  it('during a slow body, per-call time-out, retried then given up', async () => {
    server.reply(stallMidBody, stallMidBody);
    const error = await outcome(
      'stalled body x2 (timeout 80 ms)',
      client().qna.list({ timeout: 80, maxRetries: 1 }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionTimeoutError).attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('calls that share a time-out: one that ends leaves the others running, each fails naming itself', async () => {
    const closed: Promise<void>[] = [];
    const hang: Handler = (_request, res) => {
      closed.push(new Promise((resolve) => res.on('close', () => resolve())));
    };
    const dw = client({ timeout: 300, maxRetries: 0 });
    server.reply(ok);
    await expect(dw.qna.list()).resolves.toEqual({ ok: true });
    server.reply(hang, hang);
    const [get, filters] = await Promise.all([
      outcome('no answer, shared time-out (get)', dw.qna.get('s1')),
      outcome('no answer, shared time-out (filters)', dw.qna.filters('s2')),
    ]);
    expect(get).toBeInstanceOf(APIConnectionTimeoutError);
    expect((get as Error).message).toMatch(/^qna\.get: no complete response .* within 300 ms\.$/);
    expect(filters).toBeInstanceOf(APIConnectionTimeoutError);
    expect((filters as Error).message).toMatch(/^qna\.filters: /);
    // Timed out means aborted: both sockets are closed, not left waiting.
    await Promise.all(closed);
  });

  it('calls that end leave no time-out timers behind', async () => {
    // The client's time-out timers, told apart from others by their delay (the time-out and more).
    const pending = new Set<unknown>();
    const set = vi.spyOn(globalThis, 'setTimeout');
    const clear = vi.spyOn(globalThis, 'clearTimeout');
    const dw = client({ timeout: 60_000 });
    try {
      await Promise.all(Array.from({ length: 70 }, () => dw.qna.list()));
      set.mock.calls.forEach(([, delay], index) => {
        if (typeof delay === 'number' && delay >= 60_000) pending.add(set.mock.results[index]?.value);
      });
      for (const [handle] of clear.mock.calls) pending.delete(handle);
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
    // At most the one bucket still taking calls keeps its (unref'd) timer.
    expect(pending.size).toBeLessThanOrEqual(1);
  });

  it('a document body that stalls while the caller reads it', async () => {
    server.reply(stallMidBody);
    const response = await client().qna.document('s', { documentId: 'd' }, { timeout: 80 });
    const error = await outcome('stalled document body', response.text());
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('a document body dropped mid-way', async () => {
    server.reply(dropMidBody);
    const response = await client().qna.document('s', { documentId: 'd' });
    const error = await outcome('document dropped mid-body', response.arrayBuffer());
    expect(error).toBeInstanceOf(APIConnectionError);
  });
});

describe('abort', () => {
  it('while waiting for the response; the socket is closed', async () => {
    const closed = new Promise<void>((resolve) => {
      server.reply((_request, res) => res.on('close', () => resolve()));
    });
    const controller = new AbortController();
    const call = client().qna.list({ signal: controller.signal });
    await until(() => server.requests.length > 0, 'the request reached the server');
    controller.abort();
    const error = await outcome('caller abort (pending)', call);
    expect(error).toBeInstanceOf(APIUserAbortError);
    await closed;
  });

  it("without a time-out, the caller's signal alone aborts and the socket is closed", async () => {
    const closed = new Promise<void>((resolve) => {
      server.reply((_request, res) => res.on('close', () => resolve()));
    });
    const controller = new AbortController();
    const call = client({ timeout: Number.POSITIVE_INFINITY }).qna.list({ signal: controller.signal });
    await until(() => server.requests.length > 0, 'the request reached the server');
    controller.abort();
    const error = await outcome('caller abort (pending, no time-out)', call);
    expect(error).toBeInstanceOf(APIUserAbortError);
    await closed;
  });

  it('without a time-out or signal, calls and document bodies complete', async () => {
    const dw = client({ timeout: Number.POSITIVE_INFINITY });
    server.reply(ok);
    await expect(dw.qna.list()).resolves.toEqual({ ok: true });
    server.reply(json(200, { body: 'text' }));
    const response = await dw.qna.document('s', { documentId: 'd' }, { timeout: Number.POSITIVE_INFINITY });
    await expect(response.json()).resolves.toEqual({ body: 'text' });
  });

  it('during a retry wait', async () => {
    server.reply(json(503, {}, { 'retry-after': '30' }));
    const controller = new AbortController();
    const call = client().qna.list({ signal: controller.signal });
    await until(() => infos.length > 0, 'the retry was logged');
    controller.abort();
    const error = await outcome('caller abort (retry wait)', call);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const error = await outcome('caller abort (before)', client().qna.list({ signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('bodies', () => {
  it('malformed JSON is a MalformedResponseError, not retried', async () => {
    server.reply(json(200, '{"systems": {"a": "b"'));
    const error = await outcome('malformed JSON', client().qna.list());
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as MalformedResponseError).body).toBe('{"systems": {"a": "b"');
    expect((error as MalformedResponseError).status).toBe(200);
    expect(server.requests).toHaveLength(1);
  });

  it('a wrong content type with HTML is a MalformedResponseError naming the type', async () => {
    server.reply((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login</html>');
    });
    const error = await outcome('HTML instead of JSON', client().qna.list());
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as Error).message).toContain('text/html');
  });

  it('JSON under a wrong content type is still read', async () => {
    server.reply((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('{"s":"Docs"}');
    });
    expect(await client().qna.list()).toEqual({ s: 'Docs' });
  });

  it('an empty 200 is a MalformedResponseError', async () => {
    server.reply((_request, res) => {
      res.writeHead(200, { 'content-length': '0' });
      res.end();
    });
    expect(await outcome('empty body', client().agents.list())).toBeInstanceOf(MalformedResponseError);
  });

  it('search and answer with status FAILED give QueryFailedError with the parsed body', async () => {
    const failed = { status: 'FAILED', failureReason: 'Unknown filter field: colour', questionUuid: 'q' };
    server.reply(json(200, failed), json(200, failed));
    const search = await outcome('search FAILED', client().qna.search('s', { query: 'q' }));
    expect(search).toBeInstanceOf(QueryFailedError);
    expect((search as QueryFailedError).failureReason).toBe('Unknown filter field: colour');
    expect((search as QueryFailedError).body).toEqual(failed);
    const answer = await outcome(
      'answer FAILED',
      client().qna.answer('s', { questionText: 'q', llmProviderId: 'l' }),
    );
    expect(answer).toBeInstanceOf(QueryFailedError);
    expect((answer as Error).message).toBe('Query failed: Unknown filter field: colour');
    expect(server.requests).toHaveLength(2);
  });

  it('a FAILED body under an error status is that status error', async () => {
    server.reply(json(400, { status: 'FAILED', failureReason: 'bad filter' }));
    const error = await outcome('400 FAILED', client().qna.search('s', { query: 'q' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toBe('400 bad filter');
  });

  it('a 409 that stays gives ConflictError', async () => {
    server.reply(json(409, {}), json(409, {}));
    expect(await outcome('409 x2', client({ maxRetries: 1 }).qna.list())).toBeInstanceOf(ConflictError);
  });
});
