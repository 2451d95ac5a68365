import Dataworkz, {
  type AgentCard,
  type AgentListItem,
  type AgentResponse,
  type AnswerResponse,
  type FilterList,
  filter,
  InvalidParameterError,
  type LlmProviderMap,
  Dataworkz as NamedDataworkz,
  type QnaSystemDetails,
  type QnaSystemMap,
  type SearchResponse,
  type WithUnknownFields,
} from '@dataworkz/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from './support/server.js';

const KEY = 'test-key-1';
let server: TestServer;
let dw: Dataworkz;

beforeAll(async () => {
  server = await startServer();
  dw = new Dataworkz({ baseUrl: `${server.url}/`, apiKey: KEY, headers: { 'x-team': 'sdk' } });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function last() {
  const request = server.requests.at(-1);
  if (!request) throw new Error('no request reached the server');
  return request;
}

describe('the client', () => {
  it('is the default and a named export, with a normalised baseUrl', () => {
    expect(NamedDataworkz).toBe(Dataworkz);
    expect(dw.baseUrl).toBe(server.url);
  });
});

describe('agents', () => {
  it('list: GET /api/agents/v1/', async () => {
    const agents: WithUnknownFields<AgentListItem>[] = [
      {
        agentId: 'a-1',
        name: 'Orders',
        description: 'Order questions',
        createdByName: 'Dana',
        createdDate: '2026-03-14 09:21:07.412',
        scenariosCount: '3',
        extra: { x: 1 },
      },
    ];
    server.reply(json(200, agents));
    const result: AgentListItem[] = await dw.agents.list();
    expect(result).toEqual(agents);
    expect(last()).toMatchObject({ method: 'GET', path: '/api/agents/v1/', query: '', body: '' });
    expect(last().headers.authorization).toBe(`SSWS ${KEY}`);
    expect(last().headers['x-team']).toBe('sdk');
  });

  it('llmProviders: GET /api/agents/v1/llm-providers', async () => {
    const providers: LlmProviderMap = { 'llm-1': 'gpt-4o', 'llm-2': 'claude-sonnet' };
    server.reply(json(200, providers));
    expect(await dw.agents.llmProviders()).toEqual(providers);
    expect(last()).toMatchObject({ method: 'GET', path: '/api/agents/v1/llm-providers', query: '' });
  });

  it('respond: POST /api/agents/v1/{agentId}/response with query and JSON body', async () => {
    const answer: AgentResponse = {
      status: 'OK',
      data: {
        question: 'Where is order 1001?',
        systemName: 'Orders',
        systemId: 'agent 1',
        answer: 'Shipped.',
        scenario: 'Order status',
        type: 'agent',
        questionUuid: 'q-1',
        status: 'COMPLETED',
        structuredResponse: {
          scenario: 'Order status',
          agentResponse: 'Shipped.',
          responseType: 'Finish',
          structuredOutput: '{"orderId":"1001"}',
        },
        queryPlan: { steps: [{ id: 's1', type: 'RETRIEVAL' }], messages: [] },
        probe: { nodes: [] },
      },
    };
    server.reply(json(200, answer));
    const result = await dw.agents.respond('agent 1', {
      userText: 'Where is order 1001? & more',
      llmProviderId: 'llm-1',
      properties: { include_probe: false, context: 3 },
      conversationHistory: [
        { by: 'USER', text: 'hi' },
        { by: 'AI', text: 'hello' },
      ],
      contextValues: { userName: 'Ada', tier: { level: 2 } },
    });
    expect(result).toEqual(answer);
    expect(result.data?.answer).toBe('Shipped.');
    const request = last();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/api/agents/v1/agent%201/response');
    expect(request.query).toBe(
      'userText=Where%20is%20order%201001%3F%20%26%20more&llmProviderId=llm-1&properties=include_probe%3Dfalse%3Bcontext%3D3',
    );
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      conversationHistory: [
        { by: 'USER', text: 'hi' },
        { by: 'AI', text: 'hello' },
      ],
      contextValues: { userName: 'Ada', tier: { level: 2 } },
    });
  });

  it('respond without history sends an empty JSON object', async () => {
    server.reply(json(200, { status: 'OK', data: {} }));
    await dw.agents.respond('a-1', { userText: 'hi', llmProviderId: 'llm-1' });
    expect(last().query).toBe('userText=hi&llmProviderId=llm-1');
    expect(last().body).toBe('{}');
  });

  it('card: agent-card.json, or agent.json when legacy', async () => {
    const card: AgentCard = {
      name: 'Orders',
      capabilities: {
        streaming: true,
        extensions: [{ uri: 'https://dataworkz.com/agents/ext/provided-values/v1' }],
      },
      skills: [{ id: 's', name: 'Order status', tags: ['orders'] }],
    };
    server.reply(json(200, card), json(200, card));
    expect(await dw.agents.card('a-1')).toEqual(card);
    expect(last()).toMatchObject({
      method: 'GET',
      path: '/api/agents/v1/a2a/a-1/.well-known/agent-card.json',
    });
    expect(await dw.agents.card('a-1', { legacy: true })).toEqual(card);
    expect(last()).toMatchObject({ method: 'GET', path: '/api/agents/v1/a2a/a-1/.well-known/agent.json' });
  });
});

describe('qna', () => {
  it('list: GET /api/qna/v1/systems', async () => {
    const systems: QnaSystemMap = { 'sys-1': 'Product Documentation' };
    server.reply(json(200, systems));
    expect(await dw.qna.list()).toEqual(systems);
    expect(last()).toMatchObject({ method: 'GET', path: '/api/qna/v1/systems', query: '' });
  });

  it('get: GET /api/qna/v1/systems/{systemId}', async () => {
    const details: QnaSystemDetails = {
      uuid: 'sys-1',
      name: 'Docs',
      mode: 'qa',
      dimensions: 1536,
      params: '{}',
    };
    server.reply(json(200, details));
    expect(await dw.qna.get('sys-1')).toEqual(details);
    expect(last()).toMatchObject({ method: 'GET', path: '/api/qna/v1/systems/sys-1' });
  });

  it('llmProviders: GET /api/qna/v1/systems/{systemId}/llm-providers', async () => {
    server.reply(json(200, { 'llm-1': 'gpt-4o' }));
    expect(await dw.qna.llmProviders('sys-1')).toEqual({ 'llm-1': 'gpt-4o' });
    expect(last()).toMatchObject({ method: 'GET', path: '/api/qna/v1/systems/sys-1/llm-providers' });
  });

  it('filters: GET /api/qna/v1/systems/{systemId}/filters', async () => {
    const filters: FilterList = {
      filters: [{ name: 'year', type: 'integer', description: 'Year', cardinality: 2, values: [2025, 2026] }],
    };
    server.reply(json(200, filters));
    expect(await dw.qna.filters('sys-1')).toEqual(filters);
    expect(last()).toMatchObject({ method: 'GET', path: '/api/qna/v1/systems/sys-1/filters' });
  });

  it('search: GET .../search with query, llmProviderId, filter and properties', async () => {
    const body: SearchResponse = {
      question: 'reset password',
      questionUuid: 'q-2',
      systemName: 'Docs',
      systemId: 'sys-1',
      status: 'COMPLETED',
      queryPlan: 'retrieve',
      searchResultsList: [
        {
          source: 'docs`manuals`body',
          type: 'pdf',
          data: 'Open Settings',
          link: '/doc',
          similarityScore: 0.9,
        },
      ],
      linksCount: 1,
      pdfCount: 1,
      wordCount: 0,
      textCount: 0,
      appliedFilters: "version in ('2.0')",
    };
    server.reply(json(200, body));
    const result = await dw.qna.search('sys-1', {
      query: 'reset password',
      llmProviderId: 'llm-1',
      filter: filter.in('version', ['1.2', "2'0"]),
      properties: { include_probe: false },
    });
    expect(result).toEqual(body);
    expect(result.searchResultsList?.[0]?.similarityScore).toBe(0.9);
    const request = last();
    expect(request).toMatchObject({ method: 'GET', path: '/api/qna/v1/systems/sys-1/search', body: '' });
    expect(request.query).toBe(
      // The URL parser percent-encodes the quotes of the query as %27.
      'query=reset%20password&llmProviderId=llm-1&filter=version%20in%20(%271.2%27%2C%20%272%27%270%27)&properties=include_probe%3Dfalse',
    );
    expect(new URLSearchParams(request.query).get('filter')).toBe("version in ('1.2', '2''0')");
  });

  it('search: only the required query when nothing else is given; raw filter strings pass through', async () => {
    server.reply(json(200, { status: 'COMPLETED' }), json(200, { status: 'COMPLETED' }));
    await dw.qna.search('sys-1', { query: 'a+b' });
    expect(last().query).toBe('query=a%2Bb');
    await dw.qna.search('sys-1', { query: 'x', filter: 'year = 2024', properties: 'include_probe=true' });
    expect(new URLSearchParams(last().query).get('filter')).toBe('year = 2024');
    expect(new URLSearchParams(last().query).get('properties')).toBe('include_probe=true');
  });

  it('answer: GET .../answer with questionText and llmProviderId; queryPlan as object or string', async () => {
    const body: AnswerResponse = {
      question: 'How?',
      questionUuid: 'q-3',
      systemName: 'Docs',
      systemId: 'sys-1',
      answer: 'Like this [1].',
      context: [{ source: 's', data: 'd', link: '/doc' }],
      type: 'qna',
      status: 'COMPLETED',
      queryPlan: { steps: [{ id: 'retrieve', type: 'RETRIEVAL', query: 'how' }], messages: [] },
    };
    server.reply(json(200, body), json(200, { ...body, queryPlan: 'retrieve; answer' }));
    const result = await dw.qna.answer('sys-1', { questionText: 'How do I?', llmProviderId: 'llm-1' });
    expect(result).toEqual(body);
    expect(last()).toMatchObject({
      method: 'GET',
      path: '/api/qna/v1/systems/sys-1/answer',
      query: 'questionText=How%20do%20I%3F&llmProviderId=llm-1',
    });
    const second = await dw.qna.answer('sys-1', {
      questionText: 'q',
      llmProviderId: 'l',
      filter: filter.and(filter.eq('year', 2024), filter.eq('draft', false)),
    });
    expect(second.queryPlan).toBe('retrieve; answer');
    expect(new URLSearchParams(last().query).get('filter')).toBe('year = 2024 and draft = false');
  });

  it('document: GET .../document returns the body to read as text, bytes or a stream', async () => {
    const bytes = Buffer.from('%PDF-1.4\n\x00\xff binary');
    const reply = (_request: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(bytes);
    };
    server.reply(reply, reply, (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('plain text');
    });
    const response = await dw.qna.document('sys-1', { documentId: 'doc 12/a', detail: 'content' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
    expect(last()).toMatchObject({
      method: 'GET',
      path: '/api/qna/v1/systems/sys-1/document',
      query: 'documentId=doc%2012%2Fa&detail=content',
    });
    expect(last().headers.accept).toBe('*/*');

    const streamed = await dw.qna.document('sys-1', { documentId: 'd' });
    const chunks: Uint8Array[] = [];
    const reader = (streamed.body as ReadableStream<Uint8Array>).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(Buffer.concat(chunks)).toEqual(bytes);
    expect(last().query).toBe('documentId=d');

    expect(await (await dw.qna.document('sys-1', { documentId: 'd', detail: 'text' })).text()).toBe(
      'plain text',
    );
  });
});

describe('path parameters', () => {
  it.each([
    ['../x', '/api/qna/v1/systems/..%2Fx'],
    ['a/b?c', '/api/qna/v1/systems/a%2Fb%3Fc'],
    ['a#b', '/api/qna/v1/systems/a%23b'],
    ['%2e%2e', '/api/qna/v1/systems/%252e%252e'],
    ['ü €', '/api/qna/v1/systems/%C3%BC%20%E2%82%AC'],
  ])('%j stays one segment', async (id, path) => {
    await dw.qna.get(id);
    expect(last().path).toBe(path);
  });

  it.each(['', '.', '..', '\uD800'])('%j is refused before sending', async (id) => {
    const before = server.requests.length;
    await expect(dw.qna.get(id)).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(dw.agents.card(id)).rejects.toBeInstanceOf(InvalidParameterError);
    expect(server.requests.length).toBe(before);
  });
});

describe('missing parameters', () => {
  it.each([
    ['respond without userText', () => dw.agents.respond('a', { llmProviderId: 'l' } as never), 'userText'],
    [
      'respond without llmProviderId',
      () => dw.agents.respond('a', { userText: 'u' } as never),
      'llmProviderId',
    ],
    ['respond without params', () => dw.agents.respond('a', undefined as never), 'params'],
    [
      'respond with a bad history',
      () =>
        dw.agents.respond('a', {
          userText: 'u',
          llmProviderId: 'l',
          conversationHistory: [{ by: 'BOT', text: 'x' }],
        } as never),
      'conversationHistory',
    ],
    ['search without query', () => dw.qna.search('s', {} as never), 'query'],
    [
      'answer without questionText',
      () => dw.qna.answer('s', { llmProviderId: 'l' } as never),
      'questionText',
    ],
    [
      'answer without llmProviderId',
      () => dw.qna.answer('s', { questionText: 'q' } as never),
      'llmProviderId',
    ],
    ['document without documentId', () => dw.qna.document('s', {} as never), 'documentId'],
    ['search with a bad filter', () => dw.qna.search('s', { query: 'q', filter: 42 } as never), 'filter'],
    [
      'search with bad properties',
      () => dw.qna.search('s', { query: 'q', properties: { a: 'x;y' } }),
      'properties',
    ],
  ])('%s rejects with InvalidParameterError naming it', async (_name, call, parameter) => {
    const before = server.requests.length;
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe(parameter);
    expect(server.requests.length).toBe(before);
  });
});
