import { dataworkzTools } from '@dataworkz/ai-sdk';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { generateText, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { reply, scriptedModel, toolCall } from './support/model.js';

const apiKey = 'ai-sdk-tools-key';
const supportKb = seed.systems.supportKb.systemId;
const orderStatus = seed.agents.orderStatus.agentId;

describe('dataworkzTools with generateText', () => {
  let emu: Emulator;
  let dw: Dataworkz;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
    dw = new Dataworkz({ baseUrl: emu.url, apiKey, logLevel: 'off' });
  });
  afterAll(() => emu.close());

  it('offers only the tools its options allow, with the allowed ids as the only choices', () => {
    expect(Object.keys(dataworkzTools(dw, { systems: [supportKb] }))).toEqual([
      'search_qna_system',
      'answer_question',
    ]);
    expect(Object.keys(dataworkzTools(dw, { agents: [orderStatus] }))).toEqual(['ask_agent']);
    expect(() => dataworkzTools(dw, { systems: [] })).toThrow(/systems is empty/);
  });

  it("describes the filters with the client's schema: its field rule, in the filter builder's words", () => {
    const search = dataworkzTools(dw, { systems: [supportKb] }).search_qna_system;
    const schema = search?.inputSchema as unknown as z.ZodType;
    const ok = schema.safeParse({ systemId: supportKb, query: 'q', filters: { 'meta.year': [2025] } });
    expect(ok.success).toBe(true);
    const bad = schema.safeParse({ systemId: supportKb, query: 'q', filters: { 'topic) or (1': ['a'] } });
    expect(JSON.stringify(bad.error?.issues)).toContain(
      'A filter field must be an identifier such as version or meta.year.',
    );
    const empty = schema.safeParse({ systemId: supportKb, query: 'q', filters: { topic: [] } });
    expect(JSON.stringify(empty.error?.issues)).toContain('A filter field needs at least one value.');
  });

  it('searches a QnA system when the model calls search_qna_system, and hands the passages back', async () => {
    const model = scriptedModel([
      toolCall('search_qna_system', { systemId: supportKb, query: 'return policy', maxResults: 2 }),
      reply('Returns are accepted within 30 days.'),
    ]);
    const result = await generateText({
      model,
      tools: dataworkzTools(dw, { systems: [supportKb] }),
      stopWhen: stepCountIs(3),
      prompt: 'How do returns work?',
    });
    expect(result.text).toBe('Returns are accepted within 30 days.');
    const [toolResult] = result.steps[0]?.toolResults ?? [];
    expect(toolResult?.toolName).toBe('search_qna_system');
    const output = toolResult?.output as { passages: { text: string; source: string; link: string }[] };
    expect(output.passages.length).toBeGreaterThan(0);
    expect(output.passages.length).toBeLessThanOrEqual(2);
    expect(output.passages[0]?.text).toMatch(/return/i);
    // The model's second turn saw the passages as the tool's result.
    const secondPrompt = JSON.stringify(model.doGenerateCalls[1]?.prompt);
    expect(secondPrompt).toContain(output.passages[0]?.link);
  });

  it('answers a question with citations when the model calls answer_question', async () => {
    const result = await generateText({
      model: scriptedModel([
        toolCall('answer_question', {
          systemId: supportKb,
          question: 'How long do I have to return an item?',
        }),
        reply('See the answer above.'),
      ]),
      tools: dataworkzTools(dw, { systems: [supportKb] }),
      stopWhen: stepCountIs(3),
      prompt: 'How long do I have to return an item?',
    });
    const output = result.steps[0]?.toolResults[0]?.output as {
      answer: string;
      citations: { index: number; text: string }[];
    };
    expect(output.answer.length).toBeGreaterThan(0);
    expect(output.citations.map((citation) => citation.index)).toEqual(
      output.citations.map((_citation, index) => index + 1),
    );
    expect(output.citations.length).toBeGreaterThan(0);
  });

  it('refuses a system it was not given, before any request, as a tool error the model sees', async () => {
    const before = emu.requests.length;
    const result = await generateText({
      model: scriptedModel([
        toolCall('search_qna_system', { systemId: seed.systems.productDocs.systemId, query: 'x' }),
        reply('I cannot search that.'),
      ]),
      tools: dataworkzTools(dw, { systems: [supportKb] }),
      stopWhen: stepCountIs(3),
      prompt: 'Search the product docs.',
    });
    const content = result.steps[0]?.content ?? [];
    expect(content.some((part) => part.type === 'tool-error')).toBe(true);
    expect(result.steps[0]?.toolResults).toEqual([]);
    expect(emu.requests.length).toBe(before);
  });

  it('asks an agent, and answers its question on the same task when it asks back', async () => {
    const tools = dataworkzTools(dw, { agents: [orderStatus] });
    const first = await generateText({
      model: scriptedModel([
        toolCall('ask_agent', { agentId: orderStatus, text: 'Where is my order?' }),
        reply('Which order number?'),
      ]),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'Where is my order?',
    });
    const asked = first.steps[0]?.toolResults[0]?.output as {
      state: string;
      inputRequired: boolean;
      answer: string;
      taskId: string;
      contextId: string;
      steps: number;
    };
    expect(asked.state).toBe('input-required');
    expect(asked.inputRequired).toBe(true);
    expect(asked.answer).toMatch(/order/i);

    const second = await generateText({
      model: scriptedModel([
        toolCall('ask_agent', {
          agentId: orderStatus,
          text: 'Order 1001',
          taskId: asked.taskId,
          contextId: asked.contextId,
        }),
        reply('Your order is on its way.'),
      ]),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'Order 1001',
    });
    const answered = second.steps[0]?.toolResults[0]?.output as typeof asked;
    expect(answered.state).toBe('completed');
    expect(answered.taskId).toBe(asked.taskId);
    expect(answered.contextId).toBe(asked.contextId);
    expect(answered.answer).toMatch(/1001/);
    expect(answered.steps).toBeGreaterThan(0);
  });
});
