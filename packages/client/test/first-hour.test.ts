// What a new user reaches for first: the response behind a result, from a result to its document,
// one failure rule for every query call, keys kept out of browsers, errors that explain themselves.
import { inspect } from 'node:util';
import Dataworkz, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIPromise,
  DataworkzError,
  documentIdOf,
  InvalidParameterError,
  QueryFailedError,
  type RequestOptions,
  type SearchResultItem,
} from '@dataworkz/client';
import { type Emulator, startEmulator } from '@dataworkz/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, startServer, type TestServer } from './support/server.js';

let emu: Emulator;
let dw: Dataworkz;
let server: TestServer;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, host: '127.0.0.1' });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey });
  server = await startServer();
});
afterAll(async () => {
  await emu.close();
  await server.close();
});

describe('withResponse()', () => {
  it('every method returns a Promise whose withResponse() gives data, response and request id', async () => {
    const call = dw.qna.list();
    expect(call).toBeInstanceOf(Promise);
    expect(call).toBeInstanceOf(APIPromise);
    const { data, response, requestId } = await call.withResponse();
    expect(data).toEqual(await dw.qna.list());
    expect(response.status).toBe(200);
    expect(requestId).toMatch(/^req-\d+$/);
    expect(requestId).toBe(response.headers.get('x-request-id'));
  });

  it('awaiting, then, catch and finally behave as for any promise', async () => {
    const systems = await dw.qna.list();
    expect(Object.keys(systems).length).toBeGreaterThan(0);
    let finallyRan = false;
    const error = await dw.qna
      .get('no-such-system')
      .finally(() => {
        finallyRan = true;
      })
      .catch((e: unknown) => e);
    expect(finallyRan).toBe(true);
    expect(error).toBeInstanceOf(DataworkzError);
  });

  it('a bad argument rejects the promise (it never throws synchronously)', async () => {
    const call = dw.qna.get('..');
    await expect(call).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(dw.qna.get('..').withResponse()).rejects.toBeInstanceOf(InvalidParameterError);
  });

  it('document() resolves its Response as data too', async () => {
    const [systemId] = Object.keys(await dw.qna.list());
    const search = await dw.qna.search(systemId as string, { query: 'install' });
    const hit = search.searchResultsList[0];
    if (!hit) throw new Error('the emulator found nothing');
    const { data, response } = await dw.qna.document(systemId as string, hit).withResponse();
    expect(data).toBe(response);
    expect((await data.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});

describe('from a search result to its document', () => {
  it.each([
    ['a document-endpoint link', { link: '/api/qna/v1/systems/s/document?documentId=doc%201' }, 'doc 1'],
    ['an absolute one', { link: 'https://host/api/qna/v1/systems/s/document?documentId=d2&x=1' }, 'd2'],
    ['a documentId field', { link: 's3a://bucket/a.pdf', documentId: 'd3' }, 'd3'],
    ['a documentId in metadata', { link: 's3a://bucket/a.pdf', metadata: { documentId: 'd4' } }, 'd4'],
    ['a source file URI only', { link: 's3a://bucket/path/_10-K-2022-(As-Filed).pdf' }, undefined],
    ['no link', {}, undefined],
  ])('documentIdOf: %s', (_what, result, id) => {
    expect(documentIdOf(result)).toBe(id);
  });

  it('document(systemId, result) fetches the document a search result names', async () => {
    const [systemId] = Object.keys(await dw.qna.list());
    const { searchResultsList } = await dw.qna.search(systemId as string, { query: 'password' });
    for (const hit of searchResultsList.slice(0, 3)) {
      const viaResult = await (await dw.qna.document(systemId as string, hit)).arrayBuffer();
      const viaId = await (
        await dw.qna.document(systemId as string, { documentId: documentIdOf(hit) as string })
      ).arrayBuffer();
      expect(viaResult.byteLength).toBeGreaterThan(0);
      expect(Buffer.from(viaResult).equals(Buffer.from(viaId))).toBe(true);
    }
  });

  it('a result that names no document is an InvalidParameterError; nothing is sent', async () => {
    const before = server.requests.length;
    const local = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    const result: SearchResultItem = { link: 's3a://bucket/a.pdf', source: 'a', data: 'b' };
    const error = await local.qna.document('s', result).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe('documentId');
    expect(server.requests.length).toBe(before);
  });
});

describe("a call's options", () => {
  it('an unknown key is an InvalidParameterError naming it and the options there are; nothing is sent', async () => {
    const before = server.requests.length;
    const local = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    // A misspelt option, as plain JavaScript (or a spread of a wider object) passes it.
    const options = { timout: 5 } as RequestOptions;
    const error = await local.qna
      .answer('s', { questionText: 'q', llmProviderId: 'l' }, options)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe('timout');
    expect((error as Error).message).toBe(
      'qna.answer has no option "timout"; its options are signal, timeout, headers, maxRetries, maxResponseBytes, onResponse, onRetry.',
    );
    expect(server.requests.length).toBe(before);
  });

  it("a method's own options (card's legacy, resolve's within) are still taken", async () => {
    const [agent] = await dw.agents.list({ timeout: 5_000 });
    if (agent === undefined) throw new Error('the emulator lists no agent');
    expect((await dw.agents.card(agent.agentId, { legacy: true, timeout: 5_000 })).name).toBe(agent.name);
    const [id] = Object.keys(await dw.qna.list());
    expect((await dw.qna.resolve(id as string, { within: [id as string], timeout: 5_000 })).systemId).toBe(
      id,
    );
  });
});

describe('respond() fails like search and answer', () => {
  it.each([
    [
      'data.status: FAILED',
      { status: 'OK', data: { status: 'FAILED', failureReason: 'No scenario matches', answer: '' } },
    ],
    ['status: FAILED', { status: 'FAILED', failureReason: 'No scenario matches', data: {} }],
  ])('a 200 with %s is a QueryFailedError with the reason and the body', async (_what, body) => {
    server.reply(json(200, body));
    const local = new Dataworkz({ baseUrl: server.url, apiKey: 'k' });
    const error = await local.agents
      .respond('a', { userText: 'hi', llmProviderId: 'l' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(error).toMatchObject({ failureReason: 'No scenario matches', body, status: 200 });
    expect((error as Error).message).toBe('Query failed: No scenario matches');
  });
});

describe('API keys in browsers', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function inAPage(): void {
    vi.stubGlobal('window', { document: {} });
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0' });
  }

  it('a client with an apiKey is refused in a page, pointing to token or a server', () => {
    inAPage();
    expect(() => new Dataworkz({ baseUrl: 'https://x', apiKey: 'dwk-123456789' })).toThrow(
      /token option.*server.*dangerouslyAllowBrowser: true/s,
    );
    expect(() => new Dataworkz({ baseUrl: 'https://x', apiKey: 'dwk-123456789' })).not.toThrow(/dwk-123/);
  });

  it('dangerouslyAllowBrowser: true allows it; a token needs no flag; servers never ask', () => {
    inAPage();
    expect(
      () => new Dataworkz({ baseUrl: 'https://x', apiKey: 'k', dangerouslyAllowBrowser: true }),
    ).not.toThrow();
    expect(() => new Dataworkz({ baseUrl: 'https://x', token: () => 'jwt' })).not.toThrow();
    vi.unstubAllGlobals();
    expect(() => new Dataworkz({ baseUrl: 'https://x', apiKey: 'k' })).not.toThrow();
  });
});

describe('errors that explain', () => {
  it('a refused connection names the call, the origin and the cause code, never a query value', async () => {
    const closed = await startServer();
    const origin = closed.url;
    await closed.close();
    const local = new Dataworkz({ baseUrl: origin, apiKey: 'k', maxRetries: 0 });
    const error = await local.qna.search('sys', { query: 'private question' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(`qna.search: connection to ${origin} failed (ECONNREFUSED).`);
    expect(inspect(error)).not.toContain('private question');
  });

  it('a time-out names the call, the origin and the time-out in ms', async () => {
    server.reply(() => {
      // Never answers.
    });
    const local = new Dataworkz({ baseUrl: server.url, apiKey: 'k', maxRetries: 0, timeout: 100 });
    const error = await local.agents.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toBe(
      `agents.list: no complete response from ${server.url} within 100 ms.`,
    );
  });

  it('printed errors show no property as undefined', async () => {
    const local = new Dataworkz({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
    server.reply(json(404, { message: 'gone' }));
    const notFound = await local.qna.get('x').catch((e: unknown) => e);
    const invalid = await local.qna.get('').catch((e: unknown) => e);
    for (const error of [notFound, invalid, new DataworkzError('plain')]) {
      expect(inspect(error)).not.toMatch(/: undefined/);
    }
  });
});
