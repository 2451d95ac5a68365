import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, connectStdio } from './support/connect.js';

// The tools take a QnA system or an agent by id or by exact name (any case), listed once per call.
const apiKey = 'mcp-names-key';
const { supportKb, productDocs } = seed.systems;
const { orderStatus } = seed.agents;
let emu: Emulator;
let connection: Connection;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
  connection = await connectStdio({ baseUrl: emu.url, apiKey });
});
afterAll(async () => {
  await connection.close();
  await emu.close();
});
afterEach(() => {
  emu.faults.clear();
  emu.clearRequests();
});

const callTool = async (name: string, args: Record<string, unknown>) =>
  (await connection.client.callTool({ name, arguments: args })) as CallToolResult;

const textOf = (result: CallToolResult) =>
  result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');

const paths = () => emu.requests.map((r) => r.path);

describe('QnA systems by name', () => {
  it('answer_question takes the exact name in another case; the result names the id', async () => {
    const result = await callTool('answer_question', {
      systemId: 'CUSTOMER support KNOWLEDGE base',
      question: 'How do I return an item?',
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(result.structuredContent).toMatchObject({ systemId: supportKb.systemId });
    expect(paths()).toEqual([
      '/api/qna/v1/systems',
      `/api/qna/v1/systems/${supportKb.systemId}/llm-providers`,
      `/api/qna/v1/systems/${supportKb.systemId}/answer`,
    ]);
  });

  it('search_qna_system and read_document take the name, and the id still works', async () => {
    const byName = await callTool('search_qna_system', { systemId: 'Product Documentation', query: 'reset' });
    expect(byName.structuredContent).toMatchObject({ systemId: productDocs.systemId });
    const byId = await callTool('search_qna_system', { systemId: productDocs.systemId, query: 'reset' });
    expect(byId.structuredContent).toMatchObject({ systemId: productDocs.systemId });
    const { documentId } = seed.documents.shippingTimes;
    const read = await callTool('read_document', { systemId: 'customer support knowledge base', documentId });
    expect(read.structuredContent).toMatchObject({ systemId: supportKb.systemId, documentId });
  });

  it('an unknown name is a tool error naming the close matches; nothing is asked of a system', async () => {
    const result = await callTool('search_qna_system', { systemId: 'Product Docs', query: 'reset' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `UnknownNameError: No QnA system has the id or name "Product Docs". Close matches: "${productDocs.name}" (id ${productDocs.systemId}).`,
    );
    expect(paths()).toEqual(['/api/qna/v1/systems']);
  });

  it('an ambiguous name is a tool error listing each match with its id', async () => {
    emu.faults.add({
      route: 'listQnaSystems',
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        [productDocs.systemId]: productDocs.name,
        'docs-copy-3': 'PRODUCT DOCUMENTATION',
      }),
    });
    const result = await callTool('answer_question', {
      systemId: 'product documentation',
      question: 'How do I reset my password?',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `AmbiguousNameError: "product documentation" names 2 QnA systems: "${productDocs.name}" (id ${productDocs.systemId}), "PRODUCT DOCUMENTATION" (id docs-copy-3). Give the id instead.`,
    );
    expect(paths()).toEqual(['/api/qna/v1/systems']);
  });
});

describe('agents by name', () => {
  it('ask_agent takes the exact name in another case', async () => {
    const result = await callTool('ask_agent', {
      agentId: 'ORDER STATUS ASSISTANT',
      text: 'Where is order 1001?',
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(result.structuredContent).toMatchObject({ agentId: orderStatus.agentId, state: 'completed' });
    expect(paths()[0]).toBe('/api/agents/v1/');
  });

  it('an unknown name lists the close matches', async () => {
    const result = await callTool('ask_agent', { agentId: 'Order Assistant', text: 'Where is order 1001?' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `UnknownNameError: No agent has the id or name "Order Assistant". Close matches: "${orderStatus.name}" (id ${orderStatus.agentId}).`,
    );
    expect(paths()).toEqual(['/api/agents/v1/']);
  });

  it('an ambiguous name is a tool error', async () => {
    emu.faults.add({
      route: 'listAgents',
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify([
        { agentId: orderStatus.agentId, name: orderStatus.name, description: '' },
        { agentId: 'agent-copy-2', name: 'order status assistant', description: '' },
      ]),
    });
    const result = await callTool('ask_agent', { agentId: 'Order Status Assistant', text: 'Hi' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^AmbiguousNameError: "Order Status Assistant" names 2 agents: /);
    expect(paths()).toEqual(['/api/agents/v1/']);
  });
});
