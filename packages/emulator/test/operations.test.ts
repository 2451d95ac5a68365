import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, obj, q } from './support/http.js';
import { expectMatchesSpec, operations } from './support/spec.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['ops-key'] });
});
afterAll(() => emu.close());

const agentId = seed.agents.orderStatus.agentId;
const systemId = seed.systems.productDocs.systemId;
const llm = seed.llms.accountDefault;

describe('every operation answers as the spec says', () => {
  it("the spec has the contract's 13 operations and the 4 beyond it that the emulator serves", () => {
    expect(operations.map((o) => o.operationId).sort()).toEqual(
      [
        'answerQnaQuestion',
        'getAgentCard',
        'getAgentCardLegacy',
        'getQnaDocument',
        'getQnaSystem',
        'listAgentLlmProviders',
        'listAgents',
        'listQnaFilters',
        'listQnaLlmProviders',
        'listQnaSystems',
        'respondToAgent',
        'searchQnaSystem',
        'streamAgent',
        'searchQnaSystemWithHistory',
        'answerQnaQuestionWithHistory',
        'listQnaQuestionHistory',
        'getQnaQuestion',
      ].sort(),
    );
  });

  it('listAgents', async () => {
    const res = await call(emu, '/api/agents/v1/');
    expect(res.status).toBe(200);
    expectMatchesSpec('listAgents', res.json);
    const agents = res.json as Record<string, unknown>[];
    expect(agents.length).toBeGreaterThanOrEqual(3);
    expect(agents.map((a) => a.agentId)).toContain(agentId);
    expect(agents.every((a) => /^\d+$/.test(String(a.scenariosCount)))).toBe(true);
    expect(agents.every((a) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/.test(String(a.createdDate)))).toBe(
      true,
    );
  });

  it('respondToAgent', async () => {
    const res = await call(
      emu,
      `/api/agents/v1/${agentId}/response?${q({ userText: 'What is the status of order 1001?', llmProviderId: llm })}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ conversationHistory: [{ by: 'USER', text: 'Hello' }], contextValues: {} }),
      },
    );
    expect(res.status).toBe(200);
    expectMatchesSpec('respondToAgent', res.json);
    const data = obj(obj(res.json).data);
    expect(data.answer).toBe(
      'Order 1001 for Ada Lovelace shipped on 2026-03-02 with DHL and is expected on 2026-03-05.',
    );
    expect(data.status).toBe('COMPLETED');
  });

  it('listAgentLlmProviders', async () => {
    const res = await call(emu, '/api/agents/v1/llm-providers');
    expect(res.status).toBe(200);
    expectMatchesSpec('listAgentLlmProviders', res.json);
    expect(obj(res.json)[llm]).toBe('gpt-4o');
  });

  it.each(['getAgentCard', 'getAgentCardLegacy'])('%s', async (operationId) => {
    const file = operationId === 'getAgentCard' ? 'agent-card.json' : 'agent.json';
    const res = await call(emu, `/api/agents/v1/a2a/${agentId}/.well-known/${file}`);
    expect(res.status).toBe(200);
    expectMatchesSpec(operationId, res.json);
    const card = obj(res.json);
    expect(card.url).toBe(`${emu.url}/api/agents/v1/a2a/${agentId}/stream`);
    expect(obj(card.capabilities).streaming).toBe(true);
    expect(obj(card.capabilities).extensions).toEqual([expect.objectContaining({ uri: emu.extensionUri })]);
    // A skill per scenario of the Order Status Assistant.
    expect((card.skills as { id: string }[]).map((skill) => skill.id)).toEqual([
      'order-status',
      'return-eligibility',
      'customer-orders',
      'cancel-order',
    ]);
  });

  it('streamAgent (its error body; the stream itself is covered with the A2A SDK)', async () => {
    const res = await call(emu, `/api/agents/v1/a2a/${agentId}/stream?llmId=unknown`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: {} }),
    });
    expect(res.status).toBe(400);
    expectMatchesSpec('streamAgent', res.json, '4XX');
  });

  it('listQnaSystems', async () => {
    const res = await call(emu, '/api/qna/v1/systems');
    expect(res.status).toBe(200);
    expectMatchesSpec('listQnaSystems', res.json);
    expect(Object.keys(obj(res.json))).toEqual([
      seed.systems.productDocs.systemId,
      seed.systems.supportKb.systemId,
    ]);
  });

  it('getQnaSystem', async () => {
    const res = await call(emu, `/api/qna/v1/systems/${systemId}`);
    expect(res.status).toBe(200);
    expectMatchesSpec('getQnaSystem', res.json);
    expect(obj(res.json)).toMatchObject({ uuid: systemId, name: 'Product Documentation', mode: 'qa' });
  });

  it('listQnaLlmProviders', async () => {
    const res = await call(emu, `/api/qna/v1/systems/${systemId}/llm-providers`);
    expect(res.status).toBe(200);
    expectMatchesSpec('listQnaLlmProviders', res.json);
    expect(Object.keys(obj(res.json))).toContain(seed.llms.productDocsSystem);
  });

  it('searchQnaSystem, completed and failed', async () => {
    const ok = await call(emu, `/api/qna/v1/systems/${systemId}/search?${q({ query: 'reset password' })}`);
    expect(ok.status).toBe(200);
    expectMatchesSpec('searchQnaSystem', ok.json);
    expect(obj(ok.json).status).toBe('COMPLETED');
    const failed = await call(
      emu,
      `/api/qna/v1/systems/${systemId}/search?${q({ query: 'x', filter: "colour = 'red'" })}`,
    );
    expectMatchesSpec('searchQnaSystem', failed.json);
    expect(obj(failed.json)).toMatchObject({
      status: 'FAILED',
      failureReason: 'Unknown filter field: colour',
    });
  });

  it('answerQnaQuestion, completed and failed', async () => {
    const ok = await call(
      emu,
      `/api/qna/v1/systems/${systemId}/answer?${q({ questionText: 'How do I reset my password?', llmProviderId: llm })}`,
    );
    expect(ok.status).toBe(200);
    expectMatchesSpec('answerQnaQuestion', ok.json);
    expect(obj(ok.json).status).toBe('COMPLETED');
    const failed = await call(
      emu,
      `/api/qna/v1/systems/${systemId}/answer?${q({ questionText: 'x', llmProviderId: llm, filter: 'version 2.0' })}`,
    );
    expectMatchesSpec('answerQnaQuestion', failed.json);
    expect(obj(failed.json)).toMatchObject({
      status: 'FAILED',
      failureReason: "Malformed filter: expected 'in' or '=' after 'version'",
    });
  });

  it('searchQnaSystemWithHistory and answerQnaQuestionWithHistory (beyond the contract)', async () => {
    const body = JSON.stringify({
      conversationHistory: [{ by: 'USER', text: 'How do I reset my password?' }],
    });
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
    const found = await call(
      emu,
      `/api/qna/v1/systems/${systemId}/search?${q({ query: 'and in 2.0?' })}`,
      init,
    );
    expect(found.status).toBe(200);
    expectMatchesSpec('searchQnaSystemWithHistory', found.json);
    const answered = await call(
      emu,
      `/api/qna/v1/systems/${systemId}/answer?${q({ questionText: 'and in version 2.0?', llmProviderId: llm })}`,
      init,
    );
    expect(answered.status).toBe(200);
    expectMatchesSpec('answerQnaQuestionWithHistory', answered.json);
    expect(obj(answered.json).status).toBe('COMPLETED');
  });

  it('listQnaQuestionHistory and getQnaQuestion (beyond the contract)', async () => {
    const asked = await call(
      emu,
      `/api/qna/v1/systems/${systemId}/answer?${q({ questionText: 'How do I take a backup?', llmProviderId: llm })}`,
    );
    const questionUuid = String(obj(asked.json).questionUuid);
    const history = await call(emu, `/api/qna/v1/systems/${systemId}/questionshistory`);
    expect(history.status).toBe(200);
    expectMatchesSpec('listQnaQuestionHistory', history.json);
    const question = await call(emu, `/api/qna/v1/systems/${systemId}/questions/${questionUuid}`);
    expect(question.status).toBe(200);
    expectMatchesSpec('getQnaQuestion', question.json);
    const missing = await call(emu, `/api/qna/v1/systems/${systemId}/questions/nope`);
    expect(missing.status).toBe(404);
    expectMatchesSpec('getQnaQuestion', missing.json, '4XX');
  });

  it('listQnaFilters', async () => {
    const res = await call(emu, `/api/qna/v1/systems/${systemId}/filters`);
    expect(res.status).toBe(200);
    expectMatchesSpec('listQnaFilters', res.json);
    expect(obj(res.json).filters).toContainEqual({
      name: 'version',
      type: 'string',
      description: 'Product version the document applies to.',
      cardinality: 3,
      values: ['1.2', '2.0', '2.1'],
    });
  });

  it('getQnaDocument', async () => {
    const { systemId: kb, documentId } = seed.documents.returnsPolicy;
    const res = await call(emu, `/api/qna/v1/systems/${kb}/document?${q({ documentId })}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.text.startsWith('%PDF-1.4')).toBe(true);
    const missing = await call(emu, `/api/qna/v1/systems/${kb}/document?${q({ documentId: 'nope' })}`);
    expect(missing.status).toBe(404);
    expectMatchesSpec('getQnaDocument', missing.json, '4XX');
  });
});
