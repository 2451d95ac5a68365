import { dataworkzTools } from '@dataworkz/ai-sdk';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { twinNamesFolder } from '../../emulator/test/support/data-folder.js';
import { reply, scriptedModel, toolCall } from './support/model.js';

// Allowlists name systems and agents by id or exact name (any case), resolved once on the first call;
// llmProviderId names an LLM by id or model name.
const apiKey = 'ai-sdk-names-key';
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

/** Runs the model's tool calls, one per step, and returns each step's first tool result or error. */
async function runCalls(tools: ToolSet, calls: ReturnType<typeof toolCall>[]) {
  const result = await generateText({
    model: scriptedModel([...calls, reply('Done.')]),
    tools,
    stopWhen: stepCountIs(calls.length + 1),
    prompt: 'Go.',
  });
  return result.steps
    .slice(0, calls.length)
    .map((step) => step.content.find((part) => part.type === 'tool-result' || part.type === 'tool-error'));
}

describe('systems by name', () => {
  it('offers the names as written, searches and answers by the ids they name, listing the systems once', async () => {
    const tools = dataworkzTools(dw, { systems: ['Customer Support Knowledge Base', productDocs.systemId] });
    const [search, answer] = await runCalls(tools, [
      toolCall('search_qna_system', { systemId: 'Customer Support Knowledge Base', query: 'refunds' }),
      toolCall('answer_question', {
        systemId: productDocs.systemId,
        question: 'How do I reset my password?',
      }),
    ]);
    expect(search).toMatchObject({ type: 'tool-result', output: { systemId: supportKb.systemId } });
    expect(answer).toMatchObject({ type: 'tool-result', output: { systemId: productDocs.systemId } });
    expect(paths().filter((p) => p === '/api/qna/v1/systems')).toHaveLength(1);
  });

  it('a choice the model cannot make is refused by the schema, before any request', async () => {
    const tools = dataworkzTools(dw, { systems: ['Customer Support Knowledge Base'] });
    const [refused] = await runCalls(tools, [
      toolCall('search_qna_system', { systemId: supportKb.systemId, query: 'x' }),
    ]);
    expect(refused?.type).toBe('tool-error');
    expect(paths()).toEqual([]);
  });

  it('an entry that names nothing, or two systems, is a tool error naming the close matches or both', async () => {
    const [unknown] = await runCalls(dataworkzTools(dw, { systems: ['Product Docs'] }), [
      toolCall('search_qna_system', { systemId: 'Product Docs', query: 'reset' }),
    ]);
    expect(unknown).toMatchObject({ type: 'tool-error' });
    expect(String((unknown as { error: unknown }).error)).toContain(
      `No QnA system has the id or name "Product Docs". Close matches: "${productDocs.name}" (id ${productDocs.systemId}).`,
    );
    const [ambiguous] = await runCalls(dataworkzTools(dw, { systems: ['runbooks'] }), [
      toolCall('search_qna_system', { systemId: 'runbooks', query: 'backups' }),
    ]);
    expect(String((ambiguous as { error: unknown }).error)).toContain(
      '"runbooks" names 2 QnA systems: "Runbooks" (id runbooks-1), "RUNBOOKS" (id runbooks-2). Give the id instead.',
    );
    expect(paths().filter((p) => p.endsWith('/search'))).toEqual([]);
  });
});

describe('llmProviderId', () => {
  it('answers with the LLM a model name names, looked up once per system', async () => {
    const tools = dataworkzTools(dw, { systems: [supportKb.systemId], llmProviderId: 'Mistral-Large' });
    const question = { systemId: supportKb.systemId, question: 'How do I return an item?' };
    const results = await runCalls(tools, [
      toolCall('answer_question', question),
      toolCall('answer_question', question),
    ]);
    expect(results.map((r) => r?.type)).toEqual(['tool-result', 'tool-result']);
    expect(sent('/answer', 'llmProviderId')).toEqual([supportKbSystem, supportKbSystem]);
    expect(paths().filter((p) => p.endsWith('/llm-providers'))).toHaveLength(1);
  });

  it('takes an id, and refuses an LLM the system lacks, listing its LLMs', async () => {
    const byId = dataworkzTools(dw, { systems: [supportKb.systemId], llmProviderId: accountDefault });
    const [ok] = await runCalls(byId, [
      toolCall('answer_question', { systemId: supportKb.systemId, question: 'Refunds?' }),
    ]);
    expect(ok?.type).toBe('tool-result');
    const wrong = dataworkzTools(dw, { systems: [supportKb.systemId], llmProviderId: 'gpt-5' });
    const [refused] = await runCalls(wrong, [
      toolCall('answer_question', { systemId: supportKb.systemId, question: 'Refunds?' }),
    ]);
    expect(String((refused as { error: unknown }).error)).toContain(
      `No LLM of the QnA system ${supportKb.systemId} has the id or name "gpt-5". Its LLMs: "gpt-4o" (id ${accountDefault})`,
    );
    expect(sent('/answer', 'llmProviderId')).toEqual([accountDefault]);
  });
});

describe('agents by name', () => {
  it('asks the agent a name names', async () => {
    const tools = dataworkzTools(dw, { agents: ['order status assistant'] });
    const [asked] = await runCalls(tools, [
      toolCall('ask_agent', { agentId: 'order status assistant', text: 'Where is order 1001?' }),
    ]);
    expect(asked).toMatchObject({
      type: 'tool-result',
      output: { agentId: orderStatus.agentId, state: 'completed' },
    });
    expect(paths().filter((p) => p.endsWith('/stream'))).toEqual([
      `/api/agents/v1/a2a/${orderStatus.agentId}/stream`,
    ]);
  });

  it('refuses an entry that names no agent, with the close matches', async () => {
    const [refused] = await runCalls(dataworkzTools(dw, { agents: ['Order Status Asistant'] }), [
      toolCall('ask_agent', { agentId: 'Order Status Asistant', text: 'Where is order 1001?' }),
    ]);
    expect(String((refused as { error: unknown }).error)).toContain(
      `No agent has the id or name "Order Status Asistant". Close matches: "${orderStatus.name}" (id ${orderStatus.agentId}).`,
    );
  });
});
