import Dataworkz, {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  filter,
  MalformedResponseError,
  NotFoundError,
  QueryFailedError,
} from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

let emu: Emulator;
let dw: Dataworkz;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, host: '127.0.0.1', apiKeys: ['client-test-key'] });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey, backoff: { initialDelayMs: 1, maxDelayMs: 4 } });
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.clearRequests();
  emu.faults.clear();
});

function last() {
  const request = emu.requests.at(-1);
  if (!request) throw new Error('no request recorded');
  return request;
}

describe('against the emulator', () => {
  it('reads at most 64 KiB of an error body', async () => {
    emu.faults.add({ route: 'listQnaSystems', status: 400, body: 'x'.repeat(1_000_000) });
    const error = await dw.qna.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).body).toBe('x'.repeat(64 * 1024));
    expect((error as BadRequestError).message.length).toBeLessThan(400);

    emu.faults.add({ route: 'listQnaSystems', status: 400, body: 'y'.repeat(1_000_000) });
    const direct = await dw.authorizedFetch(`${emu.url}/api/qna/v1/systems`).catch((e: unknown) => e);
    expect(direct).toBeInstanceOf(BadRequestError);
    expect((direct as BadRequestError).body).toBe('y'.repeat(64 * 1024));
  });

  it('hands the successful response to onResponse, after retries', async () => {
    emu.faults.add({ route: 'listQnaSystems', status: 503 });
    const seen: Response[] = [];
    const systems = await dw.qna.list({ onResponse: (response) => seen.push(response) });
    expect(Object.keys(systems)).toContain(seed.systems.productDocs.systemId);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.status).toBe(200);
    expect(seen[0]?.headers.get('x-request-id')).toMatch(/\S+/);
  });

  it('agents.list', async () => {
    const agents = await dw.agents.list();
    expect(agents.map((a) => a.agentId)).toContain(seed.agents.orderStatus.agentId);
    expect(agents.find((a) => a.agentId === seed.agents.orderStatus.agentId)?.name).toBe(
      seed.agents.orderStatus.name,
    );
    expect(last()).toMatchObject({ method: 'GET', path: '/api/agents/v1/', query: '' });
    expect(last().headers.authorization).toBe('SSWS client-test-key');
  });

  it('agents.llmProviders', async () => {
    const providers = await dw.agents.llmProviders();
    expect(Object.keys(providers)).toContain(seed.llms.accountDefault);
    expect(last()).toMatchObject({ method: 'GET', path: '/api/agents/v1/llm-providers' });
  });

  it('agents.respond (deprecated)', async () => {
    const { agentId } = seed.agents.orderStatus;
    const response = await dw.agents.respond(agentId, {
      userText: 'What is the status of order 1001?',
      llmProviderId: seed.llms.accountDefault,
      conversationHistory: [{ by: 'USER', text: 'Hello' }],
      contextValues: { userName: 'Ada' },
    });
    expect(response.data?.systemId).toBe(agentId);
    expect(typeof response.data?.answer).toBe('string');
    expect(response.data?.answer).toContain('1001');
    expect(last()).toMatchObject({ method: 'POST', path: `/api/agents/v1/${agentId}/response` });
    expect(new URLSearchParams(last().query).get('userText')).toBe('What is the status of order 1001?');
    expect(JSON.parse(last().body)).toEqual({
      conversationHistory: [{ by: 'USER', text: 'Hello' }],
      contextValues: { userName: 'Ada' },
    });
  });

  it('agents.card on both paths', async () => {
    const { agentId } = seed.agents.orderStatus;
    const card = await dw.agents.card(agentId);
    const legacy = await dw.agents.card(agentId, { legacy: true });
    expect(card.name).toBe(seed.agents.orderStatus.name);
    expect(legacy).toEqual(card);
    expect(card.capabilities?.extensions?.map((e) => e.uri)).toContain(emu.extensionUri);
    expect(emu.requests.map((r) => r.path)).toEqual([
      `/api/agents/v1/a2a/${agentId}/.well-known/agent-card.json`,
      `/api/agents/v1/a2a/${agentId}/.well-known/agent.json`,
    ]);
  });

  it('qna.list, get, llmProviders, filters', async () => {
    const { systemId, name } = seed.systems.productDocs;
    expect((await dw.qna.list())[systemId]).toBe(name);
    expect((await dw.qna.get(systemId)).name).toBe(name);
    expect(Object.keys(await dw.qna.llmProviders(systemId))).toContain(seed.llms.productDocsSystem);
    const { filters } = await dw.qna.filters(systemId);
    expect(filters?.map((f) => f.name)).toEqual(expect.arrayContaining(['version', 'year']));
    expect(emu.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/qna/v1/systems',
      `GET /api/qna/v1/systems/${systemId}`,
      `GET /api/qna/v1/systems/${systemId}/llm-providers`,
      `GET /api/qna/v1/systems/${systemId}/filters`,
    ]);
  });

  it('qna.search with a built filter the service parses', async () => {
    const { systemId } = seed.systems.productDocs;
    const result = await dw.qna.search(systemId, {
      query: 'reset password',
      filter: filter.in('version', ['2.1', "it's"]),
      properties: { include_probe: false },
    });
    expect(result.status).toBe('COMPLETED');
    expect(result.searchResultsList?.length).toBeGreaterThan(0);
    expect(result.inputFilters).toContain('version');
    const query = new URLSearchParams(last().query);
    expect(query.get('filter')).toBe("version in ('2.1', 'it''s')");
    expect(query.get('properties')).toBe('include_probe=false');
  });

  it('qna.search with an unknown filter field is a QueryFailedError', async () => {
    const error = await dw.qna
      .search(seed.systems.productDocs.systemId, { query: 'x', filter: filter.eq('colour', 'red') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect((error as QueryFailedError).failureReason).toContain('colour');
  });

  it('qna.answer', async () => {
    const { systemId } = seed.systems.productDocs;
    const answer = await dw.qna.answer(systemId, {
      questionText: 'How do I reset my password?',
      llmProviderId: seed.llms.productDocsSystem,
    });
    expect(answer.status).toBe('COMPLETED');
    expect(answer.answer?.length).toBeGreaterThan(0);
    expect(answer.context?.length).toBeGreaterThan(0);
    expect(last().path).toBe(`/api/qna/v1/systems/${systemId}/answer`);
  });

  it('qna.document returns the bytes', async () => {
    const { systemId, documentId } = seed.documents.returnsPolicy;
    const response = await dw.qna.document(systemId, { documentId });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const text = await (await dw.qna.document(systemId, { documentId, detail: 'text' })).text();
    expect(text.length).toBeGreaterThan(0);
    expect(last().query).toBe(`documentId=${encodeURIComponent(documentId)}&detail=text`);
  });

  it('unknown ids are NotFoundError with the parsed error body', async () => {
    const error = await dw.qna.get('no-such-system').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).body).toMatchObject({ status: 404 });
  });

  it('a wrong key is AuthenticationError', async () => {
    const other = new Dataworkz({ baseUrl: emu.url, apiKey: 'wrong-key-123' });
    await expect(other.qna.list()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('emulator faults', () => {
  it('503 with Retry-After as an HTTP date, then success', async () => {
    emu.faults.add({
      route: 'listQnaSystems',
      status: 503,
      headers: { 'retry-after': new Date().toUTCString() },
    });
    expect(Object.keys(await dw.qna.list()).length).toBeGreaterThan(0);
    expect(emu.requests).toHaveLength(2);
  });

  it('drop before headers twice, then success', async () => {
    emu.faults.add({ route: 'listAgents', drop: 'before-headers', times: 2 });
    expect((await dw.agents.list()).length).toBeGreaterThan(0);
  });

  it('drop during body every time', async () => {
    emu.faults.add({ route: 'getQnaSystem', drop: 'during-body', times: 3 });
    const error = await dw.qna.get(seed.systems.productDocs.systemId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).attempts).toBe(3);
  });

  it('malformed JSON', async () => {
    emu.faults.add({ route: 'listQnaFilters', malformed: true });
    await expect(dw.qna.filters(seed.systems.productDocs.systemId)).rejects.toBeInstanceOf(
      MalformedResponseError,
    );
  });

  it('x-should-retry: false stops a 500', async () => {
    emu.faults.add({ route: 'answerQnaQuestion', status: 500, headers: { 'x-should-retry': 'false' } });
    const error = await dw.qna
      .answer(seed.systems.productDocs.systemId, {
        questionText: 'q',
        llmProviderId: seed.llms.productDocsSystem,
      })
      .catch((e: unknown) => e);
    expect((error as { status: number }).status).toBe(500);
    expect(emu.requests).toHaveLength(1);
  });
});
