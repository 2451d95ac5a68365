import { AmbiguousNameError, Dataworkz, UnknownNameError } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import {
  type AgentArtifact,
  type AnswerArtifact,
  DataworkzAnswerRetriever,
  DataworkzRetriever,
  dataworkzAgentTool,
  dataworkzAnswerTool,
  dataworkzSearchTool,
  isAnswerDocument,
} from '@dataworkz/langchain';
import type { ToolMessage } from '@langchain/core/messages';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { twinNamesFolder } from '../../emulator/test/support/data-folder.js';

// Systems, agents and LLMs given by id or by exact name (any case), each resolved once, on first use.
const apiKey = 'langchain-names-key';
const { supportKb, productDocs } = seed.systems;
const { orderStatus } = seed.agents;
const { accountDefault, supportKbSystem } = seed.llms;
let emu: Emulator;
let dw: Dataworkz;
let twins: Awaited<ReturnType<typeof twinNamesFolder>>;

beforeAll(async () => {
  // A data folder adds two systems that share a name, beside the seeded ones.
  twins = await twinNamesFolder();
  emu = await startEmulator({ port: 0, apiKeys: [apiKey], data: twins.dir });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey, logLevel: 'off' });
});
afterAll(async () => {
  await emu.close();
  await twins.remove();
});
afterEach(() => emu.clearRequests());

const paths = () => emu.requests.map((r) => r.path);
const sent = (ending: string, parameter: string) =>
  emu.requests.filter((r) => r.path.endsWith(ending)).map((r) => new URLSearchParams(r.query).get(parameter));

describe('DataworkzRetriever', () => {
  it('searches the system a name names, listing the systems once for every query', async () => {
    const retriever = new DataworkzRetriever({ client: dw, systemId: 'product DOCUMENTATION' });
    const [first] = await retriever.invoke('How do I reset my password?');
    await retriever.invoke('What is new in 2.1?');
    expect(first?.metadata.systemId).toBe(productDocs.systemId);
    expect(retriever.systemId).toBe('product DOCUMENTATION');
    expect(paths()).toEqual([
      '/api/qna/v1/systems',
      `/api/qna/v1/systems/${productDocs.systemId}/search`,
      `/api/qna/v1/systems/${productDocs.systemId}/search`,
    ]);
  });

  it('still takes the id', async () => {
    const retriever = new DataworkzRetriever({ client: dw, systemId: supportKb.systemId });
    const [first] = await retriever.invoke('refunds');
    expect(first?.metadata.systemId).toBe(supportKb.systemId);
  });

  it('rejects a name nothing has with the close matches, and one two systems share, listing both', async () => {
    const typo = new DataworkzRetriever({ client: dw, systemId: 'Product Documentaton' });
    const error = await typo.invoke('reset').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownNameError);
    expect(error).toMatchObject({ closeMatches: [{ id: productDocs.systemId }] });
    const shared = new DataworkzRetriever({ client: dw, systemId: 'RUNBOOKS' });
    const ambiguous = await shared.invoke('backups').catch((e: unknown) => e);
    expect(ambiguous).toBeInstanceOf(AmbiguousNameError);
    expect((ambiguous as Error).message).toBe(
      '"RUNBOOKS" names 2 QnA systems: "Runbooks" (id runbooks-1), "RUNBOOKS" (id runbooks-2). Give the id instead.',
    );
    expect(paths().filter((p) => p.endsWith('/search'))).toEqual([]);
  });
});

describe('DataworkzAnswerRetriever', () => {
  it('answers with the LLM a model name names, both resolved once', async () => {
    const retriever = new DataworkzAnswerRetriever({
      client: dw,
      systemId: supportKb.name,
      llmProviderId: 'MISTRAL-LARGE',
    });
    const documents = await retriever.invoke('How do I return an item?');
    await retriever.invoke('What are the support hours?');
    const answer = documents.find(isAnswerDocument);
    expect(answer?.metadata).toMatchObject({ systemId: supportKb.systemId, llmProviderId: supportKbSystem });
    expect(sent('/answer', 'llmProviderId')).toEqual([supportKbSystem, supportKbSystem]);
    expect(paths().filter((p) => !p.endsWith('/answer'))).toEqual([
      '/api/qna/v1/systems',
      `/api/qna/v1/systems/${supportKb.systemId}/llm-providers`,
    ]);
  });

  it('rejects an LLM the system lacks, listing its LLMs', async () => {
    const retriever = new DataworkzAnswerRetriever({
      client: dw,
      systemId: supportKb.systemId,
      llmProviderId: 'gpt-5',
    });
    await expect(retriever.invoke('Refunds?')).rejects.toMatchObject({
      name: 'UnknownNameError',
      kind: 'LLM',
      message: expect.stringContaining(`Its LLMs: "gpt-4o" (id ${accountDefault})`),
    });
  });
});

describe('tools', () => {
  const call = (args: Record<string, unknown>) => ({
    id: 'call-1',
    name: 'tool',
    args,
    type: 'tool_call' as const,
  });

  it('the search tool takes a name', async () => {
    const search = dataworkzSearchTool(dw, { systemId: 'customer support knowledge base' });
    const message = (await search.invoke(call({ query: 'refunds' }))) as ToolMessage;
    expect((message.artifact as { metadata: { systemId: string } }[])[0]?.metadata.systemId).toBe(
      supportKb.systemId,
    );
    const unknown = dataworkzSearchTool(dw, { systemId: 'Nothing like it' });
    await expect(unknown.invoke(call({ query: 'refunds' }))).rejects.toBeInstanceOf(UnknownNameError);
  });

  it('the answer tool takes a system name and an LLM name, resolved once', async () => {
    const answer = dataworkzAnswerTool(dw, { systemId: supportKb.name, llmProviderId: 'gpt-4o' });
    const message = (await answer.invoke(call({ question: 'How do I return an item?' }))) as ToolMessage;
    await answer.invoke(call({ question: 'What are the support hours?' }));
    expect((message.artifact as AnswerArtifact).answer.length).toBeGreaterThan(0);
    expect(sent('/answer', 'llmProviderId')).toEqual([accountDefault, accountDefault]);
    expect(paths().filter((p) => p.endsWith('/systems') || p.endsWith('/llm-providers'))).toHaveLength(2);
  });

  it('the agent tool takes an agent name, and rejects an unknown one', async () => {
    const agent = dataworkzAgentTool(dw, { agentId: 'order status ASSISTANT' });
    const message = (await agent.invoke(call({ text: 'Where is order 1001?' }))) as ToolMessage;
    expect((message.artifact as AgentArtifact).agentId).toBe(orderStatus.agentId);
    expect((message.artifact as AgentArtifact).answer).toMatch(/1001/);
    const typo = dataworkzAgentTool(dw, { agentId: 'Order Status Asistant' });
    await expect(typo.invoke(call({ text: 'Where is order 1001?' }))).rejects.toMatchObject({
      name: 'UnknownNameError',
      closeMatches: [{ id: orderStatus.agentId }],
    });
  });
});
