import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import {
  type AgentArtifact,
  type AnswerArtifact,
  dataworkzAgentTool,
  dataworkzAnswerTool,
  dataworkzSearchTool,
  TASK_UPDATE_EVENT,
  type TaskUpdateEventData,
} from '@dataworkz/langchain';
import { until } from '@dataworkz/measure';
import type { Document } from '@langchain/core/documents';
import { type AIMessage, AIMessageChunk, type ToolMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const apiKey = 'langchain-tools-key';
const supportKb = seed.systems.supportKb.systemId;
const orderStatus = seed.agents.orderStatus.agentId;

/** A fake model whose one turn calls a tool with the given arguments. */
function callingModel(name: string, args: Record<string, unknown>) {
  return new FakeStreamingChatModel({
    sleep: 0,
    chunks: [
      new AIMessageChunk({
        content: '',
        tool_calls: [{ id: `call-${name}`, name, args, type: 'tool_call' }],
      }),
    ],
  });
}

describe('search and answer tools', () => {
  let emu: Emulator;
  let dw: Dataworkz;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
    dw = new Dataworkz({ baseUrl: emu.url, apiKey, logLevel: 'off' });
  });
  afterAll(() => emu.close());

  it('runs the search a model asks for in a chain, the passages as text and as documents', async () => {
    const search = dataworkzSearchTool(dw, { systemId: supportKb, maxResults: 2 });
    const model = callingModel(search.name, { query: 'return policy' }).bindTools([search]);
    // The usual tool loop, as an LCEL chain: the model's tool calls are run by the tool.
    const chain = model.pipe(
      RunnableLambda.from((message: AIMessage) => search.batch(message.tool_calls ?? [])),
    );
    const [result] = (await chain.invoke('How do returns work?')) as ToolMessage[];
    expect(result?.tool_call_id).toBe('call-dataworkz_search');
    const documents = result?.artifact as Document[];
    expect(documents.length).toBeGreaterThan(0);
    expect(documents.length).toBeLessThanOrEqual(2);
    expect(result?.content).toContain(`[1] `);
    expect(result?.content).toContain(documents[0]?.metadata.link);
    expect(result?.content).toContain(documents[0]?.pageContent);
  });

  it('answers a question with its citations, in the answer tool’s text and artifact', async () => {
    const answer = dataworkzAnswerTool(dw, { systemId: supportKb, name: 'support_answers' });
    const message = (await answer.invoke({
      id: 'call-1',
      name: 'support_answers',
      args: { question: 'How long do I have to return an item?' },
      type: 'tool_call',
    })) as ToolMessage;
    const artifact = message.artifact as AnswerArtifact;
    expect(artifact.answer.length).toBeGreaterThan(0);
    expect(artifact.citations.length).toBeGreaterThan(0);
    expect(message.content).toContain(artifact.answer);
    expect(message.content).toContain('Sources:');
    expect(message.content).toContain(artifact.citations[0]?.metadata.link);
  });

  it('rejects input outside the tool’s schema before any request', async () => {
    const search = dataworkzSearchTool(dw, { systemId: supportKb });
    emu.clearRequests();
    await expect(search.invoke({ query: '' })).rejects.toThrow(/schema/i);
    expect(emu.requests).toHaveLength(0);
    expect(() => dataworkzSearchTool(dw, { systemId: '' })).toThrow(TypeError);
  });
});

describe('an agent as a tool', () => {
  let emu: Emulator;
  let dw: Dataworkz;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, apiKeys: [apiKey], agentStepDelayMs: 5 });
    dw = new Dataworkz({ baseUrl: emu.url, apiKey, logLevel: 'off' });
  });
  afterAll(() => emu.close());

  it('reports each task update as a custom event in streamEvents, then returns the answer', async () => {
    const agent = dataworkzAgentTool(dw, { agentId: orderStatus });
    const updates: TaskUpdateEventData[] = [];
    let output: ToolMessage | undefined;
    const stream = agent.streamEvents(
      { id: 'call-1', name: agent.name, args: { text: 'Where is order 1001?' }, type: 'tool_call' },
      { version: 'v2' },
    );
    for await (const event of stream) {
      if (event.event === 'on_custom_event' && event.name === TASK_UPDATE_EVENT)
        updates.push(event.data as TaskUpdateEventData);
      if (event.event === 'on_tool_end') output = event.data.output as ToolMessage;
    }
    const artifact = output?.artifact as AgentArtifact;
    expect(artifact.state).toBe('completed');
    expect(artifact.answer).toMatch(/1001/);
    expect(output?.content).toBe(artifact.answer);
    expect(updates.length).toBe(artifact.steps);
    expect(updates.length).toBeGreaterThan(1);
    expect(updates.map((update) => update.step)).toEqual(updates.map((_update, index) => index + 1));
    expect(updates.every((update) => update.taskId === artifact.taskId)).toBe(true);
    expect(updates.some((update) => typeof update.update.message === 'string')).toBe(true);
  });

  it('says when the agent asks back, and continues the same task with the reply', async () => {
    const agent = dataworkzAgentTool(dw, { agentId: orderStatus });
    const asked = (await agent.invoke({
      id: 'call-1',
      name: agent.name,
      args: { text: 'Where is my order?' },
      type: 'tool_call',
    })) as ToolMessage;
    const question = asked.artifact as AgentArtifact;
    expect(question.state).toBe('input-required');
    expect(question.inputRequired).toBe(true);
    expect(asked.content).toContain(question.answer);
    expect(asked.content).toContain(`taskId "${question.taskId}"`);

    const replied = (await agent.invoke({
      id: 'call-2',
      name: agent.name,
      args: { text: 'It is 1002', taskId: question.taskId, contextId: question.contextId },
      type: 'tool_call',
    })) as ToolMessage;
    const answer = replied.artifact as AgentArtifact;
    expect(answer.state).toBe('completed');
    expect(answer.taskId).toBe(question.taskId);
    expect(answer.answer).toMatch(/1002/);
  });

  it('sends context values; the application’s win over the model’s of the same name', async () => {
    const agent = dataworkzAgentTool(dw, { agentId: orderStatus, contextValues: { userName: 'Ada' } });
    const model = callingModel(agent.name, {
      text: 'Where is my order?',
      contextValues: { orderId: '1001', userName: 'Mallory' },
    }).bindTools([agent]);
    const chain = model.pipe(
      RunnableLambda.from((message: AIMessage) => agent.batch(message.tool_calls ?? [])),
    );
    const [result] = (await chain.invoke('Where is my order?')) as ToolMessage[];
    const artifact = result?.artifact as AgentArtifact;
    expect(artifact.state).toBe('completed');
    expect(artifact.answer).toMatch(/^Hi Ada!/);
    expect(artifact.answer).toMatch(/1001/);
    expect(artifact.answer).not.toContain('Mallory');
  });

  it('closes the agent’s stream when the run is aborted', async () => {
    const slow = await startEmulator({ port: 0, apiKeys: [apiKey], agentStepDelayMs: 2000 });
    try {
      const client = new Dataworkz({ baseUrl: slow.url, apiKey, logLevel: 'off' });
      const agent = dataworkzAgentTool(client, { agentId: orderStatus });
      const controller = new AbortController();
      const run = agent.invoke(
        { id: 'call-1', name: agent.name, args: { text: 'Where is order 1001?' }, type: 'tool_call' },
        { signal: controller.signal },
      );
      await until(() => slow.openStreams > 0, 'the agent stream opened');
      expect(slow.openStreams).toBe(1);
      controller.abort();
      await expect(run).rejects.toThrow(/abort/i);
      await until(() => slow.openStreams === 0, 'the agent stream closed');
      expect(slow.openStreams).toBe(0);
    } finally {
      await slow.close();
    }
  });
});
