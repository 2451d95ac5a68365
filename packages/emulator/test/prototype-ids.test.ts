import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerText, finalStatus, streamAll } from './support/a2a.js';
import { call, obj, q } from './support/http.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['proto-key'] });
});
afterAll(() => emu.close());

// Names every plain object inherits: none of them is an id the service knows.
const inherited = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];
const systemId = seed.systems.productDocs.systemId;
const agentId = seed.agents.orderStatus.agentId;

describe.each(inherited)('the inherited name %s as an id', (name) => {
  it('is not an LLM of a QnA system (answer and search)', async () => {
    for (const path of [
      `/api/qna/v1/systems/${systemId}/answer?${q({ questionText: 'reset password', llmProviderId: name })}`,
      `/api/qna/v1/systems/${systemId}/search?${q({ query: 'reset password', llmProviderId: name })}`,
    ]) {
      const res = await call(emu, path);
      expect(res.status, path).toBe(400);
      expect(obj(res.json).code).toBe('LLM_NOT_CONFIGURED');
    }
  });

  it('is not an LLM of an agent (stream and the deprecated call)', async () => {
    const stream = await call(emu, `/api/agents/v1/a2a/${agentId}/stream?${q({ llmId: name })}`, {
      method: 'POST',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/stream',
        params: {
          message: { kind: 'message', role: 'user', messageId: 'm-1', parts: [{ kind: 'text', text: 'hi' }] },
        },
      }),
    });
    expect(stream.status).toBe(400);
    expect(obj(stream.json).code).toBe('LLM_NOT_CONFIGURED');
    expect(stream.text).not.toContain('native code');
    const response = await call(
      emu,
      `/api/agents/v1/${agentId}/response?${q({ userText: 'Where is order 1001?', llmProviderId: name })}`,
      { method: 'POST' },
    );
    expect(response.status).toBe(400);
    expect(obj(response.json).code).toBe('LLM_NOT_CONFIGURED');
  });

  it('is not an agent, a system or a document', async () => {
    const card = await call(
      emu,
      `/api/agents/v1/a2a/${encodeURIComponent(name)}/.well-known/agent-card.json`,
    );
    expect(card.status).toBe(404);
    expect((await call(emu, `/api/qna/v1/systems/${encodeURIComponent(name)}`)).status).toBe(404);
    const document = await call(emu, `/api/qna/v1/systems/${systemId}/document?${q({ documentId: name })}`);
    expect(document.status).toBe(404);
  });
});

describe('a provided value named __proto__', () => {
  it('stays a value and never becomes the prototype of the context values', async () => {
    // A computed key makes `__proto__` an own property, as JSON.parse does on the emulator's side.
    const values = { ['__proto__']: { userName: 'Mallory' } };
    const events = await streamAll(emu, agentId, {
      text: 'Where is order 1001?',
      values,
      extensions: [emu.extensionUri],
    });
    expect(answerText(finalStatus(events))).toMatch(/^Order 1001/);
  });
});
