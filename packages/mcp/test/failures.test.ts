import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, connectStdio } from './support/connect.js';

const apiKey = 'mcp-failures-key';
const wrongKey = 'wrong-key-6d1f0c2a9b';
const supportKb = seed.systems.supportKb.systemId;
const orderStatus = seed.agents.orderStatus.agentId;

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
});
afterAll(() => emu.close());

function textOf(result: unknown): string {
  return JSON.stringify(result);
}

describe.each([
  ['stdio', () => connectStdio({ baseUrl: emu.url, apiKey: wrongKey })],
  ['Streamable HTTP', () => connectHttp({ baseUrl: emu.url, apiKey: wrongKey })],
])('a wrong Dataworkz key over %s', (_name, connect) => {
  it('gives tool errors that say so without the key', async () => {
    const connection = await connect();
    try {
      const calls = [
        { name: 'list_qna_systems', arguments: {} },
        { name: 'search_qna_system', arguments: { systemId: supportKb, query: 'returns' } },
        { name: 'ask_agent', arguments: { agentId: orderStatus, text: 'Where is order 1001?' } },
      ];
      for (const call of calls) {
        const result = (await connection.client.callTool(call)) as CallToolResult;
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/AuthenticationError \(HTTP 401\)/);
        expect(textOf(result)).not.toContain(wrongKey);
      }
      const read = connection.client.readResource({
        uri: `dataworkz://systems/${supportKb}/documents/${seed.documents.returnsPolicy.documentId}`,
      });
      await expect(read).rejects.toThrow(/401|Authentication/);
      await read.catch((error: unknown) => expect(String(error)).not.toContain(wrongKey));
    } finally {
      await connection.close();
    }
  });
});

describe('failures underneath', () => {
  it('a 500 then a 200 is retried by the client, and the tool succeeds', async () => {
    const connection = await connectHttp({ baseUrl: emu.url, apiKey, maxRetries: 2 });
    try {
      emu.clearRequests();
      emu.faults.add({ route: 'searchQnaSystem', status: 500, times: 1 });
      const result = (await connection.client.callTool({
        name: 'search_qna_system',
        arguments: { systemId: supportKb, query: 'returns policy' },
      })) as CallToolResult;
      expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
      expect((result.structuredContent as { passages: unknown[] }).passages.length).toBeGreaterThan(0);
      expect(emu.requests.filter((request) => request.path.endsWith('/search'))).toHaveLength(2);
    } finally {
      emu.faults.clear();
      await connection.close();
    }
  });

  it('a failed query is a tool error with its failureReason', async () => {
    const connection = await connectHttp({ baseUrl: emu.url, apiKey });
    try {
      emu.faults.add({
        route: 'answerQnaQuestion',
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'FAILED', failureReason: 'The LLM provider timed out' }),
      });
      const result = (await connection.client.callTool({
        name: 'answer_question',
        arguments: {
          systemId: supportKb,
          question: 'How long do returns take?',
          llmProviderId: seed.llms.supportKbSystem,
        },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /QueryFailedError \(HTTP 200\): Query failed: The LLM provider timed out/,
      );
    } finally {
      emu.faults.clear();
      await connection.close();
    }
  });

  it('a system the server does not expose is refused without a call', async () => {
    const connection = await connectHttp({
      baseUrl: emu.url,
      apiKey,
      systems: [seed.systems.productDocs.systemId],
      agents: [seed.agents.productAdvisor.agentId],
    });
    try {
      emu.clearRequests();
      const search = (await connection.client.callTool({
        name: 'search_qna_system',
        arguments: { systemId: supportKb, query: 'returns' },
      })) as CallToolResult;
      // Looked up among the exposed systems only: the others are unknown, by id as by name.
      expect(search.isError).toBe(true);
      expect(search.content).toEqual([
        {
          type: 'text',
          text: `UnknownNameError: No QnA system has the id or name "${supportKb}". None has a close name.`,
        },
      ]);
      const ask = (await connection.client.callTool({
        name: 'ask_agent',
        arguments: { agentId: 'order status assistant', text: 'Where is order 1001?' },
      })) as CallToolResult;
      expect(ask.isError).toBe(true);
      expect(ask.content).toEqual([
        {
          type: 'text',
          text: 'UnknownNameError: No agent has the id or name "order status assistant". None has a close name.',
        },
      ]);
      // Only lists (the allowlists' once, on first use, then the two lookups): nothing was asked of a
      // system or agent the server does not expose.
      expect(emu.requests.map((r) => r.path).sort()).toEqual([
        '/api/agents/v1/',
        '/api/agents/v1/',
        '/api/qna/v1/systems',
        '/api/qna/v1/systems',
      ]);
      const listed = (await connection.client.callTool({
        name: 'list_qna_systems',
        arguments: {},
      })) as CallToolResult;
      const systems = (listed.structuredContent as { systems: { systemId: string }[] }).systems;
      expect(systems.map((system) => system.systemId)).toEqual([seed.systems.productDocs.systemId]);
      const agents = (
        (await connection.client.callTool({ name: 'list_agents', arguments: {} })) as CallToolResult
      ).structuredContent as { agents: { agentId: string }[] };
      expect(agents.agents.map((agent) => agent.agentId)).toEqual([seed.agents.productAdvisor.agentId]);
    } finally {
      await connection.close();
    }
  });
});
