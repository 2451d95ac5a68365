import { ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  answerText,
  finalStatus,
  type StreamEvent,
  streamAll,
  taskUpdates,
  transportFor,
  userMessage,
} from './support/a2a.js';

let emu: Emulator;
let slow: Emulator;
let noDefault: Emulator;
beforeAll(async () => {
  [emu, slow, noDefault] = await Promise.all([
    startEmulator({ apiKeys: ['a2a-key'] }),
    startEmulator({ apiKeys: ['slow-key'], agentStepDelayMs: 1000 }),
    startEmulator({ apiKeys: ['nd-key'], noDefaultLlm: true }),
  ]);
});
afterAll(() => Promise.all([emu.close(), slow.close(), noDefault.close()]));

const orderStatus = seed.agents.orderStatus.agentId;
const policyHelper = seed.agents.policyHelper.agentId;

describe('the A2A stream, read with the raw @a2a-js/sdk 0.3.14 client', () => {
  it('sends the task, one SVC_STATUS_UPDATE per step, then the completed answer', async () => {
    const events = await streamAll(emu, orderStatus, { text: 'Where is order 1001?' });
    expect(events[0]?.kind).toBe('task');
    expect(taskUpdates(events)).toEqual([
      { type: 'SCENARIO_SELECTED', scenario: 'Order status', message: 'Selected scenario: Order status' },
      { type: 'TOOL_CALL', tool: 'orders.getOrder', message: 'Fetching order 1001 from the orders API' },
      {
        type: 'TOOL_CALL',
        tool: 'crm.getCustomer',
        message: 'Looking up customer C-100 in the customer table',
      },
      { type: 'COMPOSING', message: 'Composing the answer with gpt-4o-mini' },
    ]);
    const final = finalStatus(events);
    expect(final.status.state).toBe('completed');
    expect(answerText(final)).toBe(
      'Order 1001 for Ada Lovelace shipped on 2026-03-02 with DHL and is expected on 2026-03-05.',
    );
    expect(final.status.message?.parts).toContainEqual({
      kind: 'data',
      data: { orderId: '1001', status: 'SHIPPED', expectedDelivery: '2026-03-05' },
      metadata: { type: 'STRUCTURED_RESPONSE' },
    });
  });

  it('streams the answer as artifact chunks before the final status when answerArtifactChunkChars is set', async () => {
    const chunked = await startEmulator({ apiKeys: ['chunk-key'], answerArtifactChunkChars: 16 });
    try {
      const events = await streamAll(chunked, orderStatus, { text: 'Where is order 1001?' });
      const chunks = events.filter((event) => event.kind === 'artifact-update');
      const answer = answerText(finalStatus(events));
      expect(chunks).toHaveLength(Math.ceil(answer.length / 16));
      expect(chunks.map((chunk) => chunk.append)).toEqual(chunks.map((_chunk, index) => index > 0));
      expect(chunks.map((chunk) => chunk.lastChunk)).toEqual(
        chunks.map((_c, index) => index === chunks.length - 1),
      );
      expect(new Set(chunks.map((chunk) => chunk.artifact.artifactId)).size).toBe(1);
      const text = chunks.flatMap((chunk) =>
        chunk.artifact.parts.map((part) => (part.kind === 'text' ? part.text : '')),
      );
      expect(text.join('')).toBe(answer);
      // The chunks come after the steps, and the final status still carries the whole answer.
      expect(events.findIndex((event) => event.kind === 'artifact-update')).toBeGreaterThan(
        events.findLastIndex((event) => event.kind === 'status-update' && !event.final),
      );
      expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true });
    } finally {
      await chunked.close();
    }
    await expect(startEmulator({ answerArtifactChunkChars: -1 })).rejects.toThrow(
      /answerArtifactChunkChars must be a non-negative integer/,
    );
  });

  it('joins three systems for a return question: orders API, customer table and the returns policy', async () => {
    const events = await streamAll(emu, orderStatus, { text: 'Can I still return order 1002?' });
    expect(taskUpdates(events).map((u) => u.tool ?? u.type)).toEqual([
      'SCENARIO_SELECTED',
      'orders.getOrder',
      'crm.getCustomer',
      'qna.search',
      'COMPOSING',
    ]);
    expect(answerText(finalStatus(events))).toBe(
      'Order 1002 was delivered on 2026-01-24. As a Gold customer, Ada Lovelace has 60 days. It can be returned until 2026-03-25.',
    );
  });

  it('personalises the answer with a provided userName when the extension is requested', async () => {
    const events = await streamAll(emu, orderStatus, {
      text: 'Where is order 1001?',
      values: { userName: 'Ada' },
      extensions: [emu.extensionUri],
    });
    expect(answerText(finalStatus(events))).toMatch(/^Hi Ada! Order 1001/);
  });

  it('ignores provided values when the extension is not requested', async () => {
    const events = await streamAll(emu, orderStatus, {
      text: 'Where is order 1001?',
      values: { userName: 'Ada' },
    });
    expect(answerText(finalStatus(events))).toMatch(/^Order 1001/);
  });

  it('uses provided values as data: a customerId picks that customer', async () => {
    const events = await streamAll(emu, policyHelper, {
      text: 'How long is my warranty?',
      values: { customerId: 'C-101', userName: 'Grace' },
      extensions: [emu.extensionUri],
    });
    expect(answerText(finalStatus(events))).toBe(
      'Hi Grace! As a Silver member, Grace Hopper is covered for 2 years from delivery against manufacturing defects.',
    );
  });

  it('fails the run on malformed provided values, with the reason', async () => {
    const message = userMessage({ text: 'Where is order 1001?' }, emu.extensionUri);
    message.parts.push({
      kind: 'data',
      data: ['not', 'an', 'object'] as never,
      metadata: { [emu.extensionUri]: true },
    });
    const events: StreamEvent[] = [];
    const serviceParameters = ServiceParameters.create(withA2AExtensions(emu.extensionUri));
    for await (const event of transportFor(emu, orderStatus).sendMessageStream(
      { message },
      { signal: AbortSignal.timeout(10_000), serviceParameters },
    )) {
      events.push(event);
    }
    const final = finalStatus(events);
    expect(final.status.state).toBe('failed');
    expect(answerText(final)).toMatch(/^Invalid provided values: /);
  });

  it('answers a greeting or off-topic text with what the agent can do, as a completed task', async () => {
    const greeting = await streamAll(emu, orderStatus, { text: 'Hello, what can you do for me?' });
    expect(greeting[0]?.kind).toBe('task');
    expect(taskUpdates(greeting)).toEqual([
      { type: 'COMPOSING', message: 'Composing the answer with gpt-4o-mini' },
    ]);
    const final = finalStatus(greeting);
    expect(final.status.state).toBe('completed');
    expect(answerText(final)).toBe(
      'Hello! I\'m the Order Status Assistant. I can tell you where an order is and when it arrives, check whether an order can still be returned, list a customer\'s orders and cancel an order that has not shipped yet. For example, ask: "What is the status of order 1001?"',
    );
    expect(final.status.message?.metadata).toMatchObject({
      scenario: '',
      queryPlan: 'no scenario matches; compose',
    });
    const offTopic = finalStatus(await streamAll(emu, policyHelper, { text: 'Tell me a joke' }));
    expect(offTopic.status.state).toBe('completed');
    expect(answerText(offTopic)).toBe(
      'Sorry, I can\'t help with that. I\'m the Support Policy Helper. I can explain how long your hardware is under warranty, tell you how long delivery takes to your region and open a support ticket for a problem with your hardware. For example, ask: "How long is my warranty?"',
    );
  });

  it.each([
    [
      'Hi',
      /^Hello! I'm the Product Advisor\. I can compare what changed between two Nimbus versions and answer how-to questions/,
    ],
    ['Thanks!', /^You're welcome! I'm the Product Advisor\./],
    ['Who won the world cup?', /^Sorry, I can't help with that\. I'm the Product Advisor\./],
    [
      'What is the weather today?',
      /^The Nimbus manuals do not cover that question\. Ask me how to do something in Nimbus/,
    ],
  ])('never dead-ends the Product Advisor: %s', async (text, answer) => {
    const final = finalStatus(await streamAll(emu, seed.agents.productAdvisor.agentId, { text }));
    expect(final.status.state).toBe('completed');
    expect(answerText(final)).toMatch(answer);
  });

  it('still runs the scenario of a request that opens with a greeting or thanks', async () => {
    for (const text of ['Hi, where is order 1001?', 'Thanks! And where is order 1001?']) {
      const final = finalStatus(await streamAll(emu, orderStatus, { text }));
      expect(final.status.message?.metadata?.scenario).toBe('Order status');
      expect(answerText(final)).toMatch(/^Order 1001 for Ada Lovelace shipped/);
    }
  });

  it('greets a provided userName by name', async () => {
    const final = finalStatus(
      await streamAll(emu, orderStatus, {
        text: 'Hi there',
        values: { userName: 'Ada' },
        extensions: [emu.extensionUri],
      }),
    );
    expect(answerText(final)).toMatch(/^Hi Ada! I'm the Order Status Assistant\./);
  });

  it('continues a task that asked for input, by taskId', async () => {
    const first = await streamAll(emu, orderStatus, { text: 'Where is my order?' });
    const asked = finalStatus(first);
    expect(asked.status.state).toBe('input-required');
    expect(answerText(asked)).toBe('Which order number do you mean?');
    const second = await streamAll(emu, orderStatus, {
      text: 'It is 1001',
      taskId: asked.taskId,
      contextId: asked.contextId,
    });
    const done = finalStatus(second);
    expect(done.taskId).toBe(asked.taskId);
    expect(done.status.state).toBe('completed');
    expect(answerText(done)).toMatch(/^Order 1001 for Ada Lovelace shipped/);
  });

  it('remembers the conversation across tasks of one contextId', async () => {
    const first = finalStatus(
      await streamAll(emu, orderStatus, { text: 'What is the status of order 1003?' }),
    );
    const next = finalStatus(
      await streamAll(emu, orderStatus, { text: 'and 1006?', contextId: first.contextId }),
    );
    expect(next.taskId).not.toBe(first.taskId);
    expect(answerText(next)).toBe('Order 1006 for Grace Hopper was delivered on 2026-03-01.');
  });

  describe('LLM selection', () => {
    const modelOf = async (target: Emulator, agentId: string, llmId?: string) =>
      finalStatus(
        await streamAll(target, agentId, { text: 'How long is my warranty?', ...(llmId ? { llmId } : {}) }),
      ).status.message?.metadata?.model;

    it('prefers llmId, then the agent LLM, then the account default', async () => {
      expect(await modelOf(emu, policyHelper, seed.llms.accountAlternate)).toBe('claude-3-5-haiku');
      expect(await modelOf(emu, policyHelper)).toBe('gpt-4o');
      const events = await streamAll(emu, orderStatus, { text: 'Where is order 1001?' });
      expect(finalStatus(events).status.message?.metadata?.model).toBe('gpt-4o-mini');
    });

    it('fails with HTTP 400 before any event when no LLM can be determined', async () => {
      await expect(
        streamAll(noDefault, policyHelper, { text: 'How long is my warranty?', apiKey: 'nd-key' }),
      ).rejects.toThrow(/400/);
      const res = await fetch(`${noDefault.url}/api/agents/v1/a2a/${policyHelper}/stream`, {
        method: 'POST',
        headers: { authorization: 'SSWS nd-key', 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: {} }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        status: 400,
        error: 'Bad Request',
        code: 'LLM_NOT_DETERMINED',
      });
      // With llmId the same agent runs.
      expect(await modelOf(noDefault, policyHelper, seed.llms.accountDefault)).toBe('gpt-4o');
    });

    it('refuses an llmId not configured for the agent', async () => {
      await expect(
        streamAll(emu, orderStatus, { text: 'hi', llmId: seed.llms.productDocsSystem }),
      ).rejects.toThrow(/400/);
    });
  });

  it('closes the connection when the client aborts', async () => {
    const controller = new AbortController();
    const transport = transportFor(slow, orderStatus, { apiKey: 'slow-key' });
    const iterator = transport.sendMessageStream(
      { message: userMessage({ text: 'Where is order 1001?' }, slow.extensionUri) },
      { signal: controller.signal },
    );
    const first = await iterator.next();
    expect(first.value?.kind).toBe('task');
    expect(slow.openStreams).toBe(1);
    controller.abort();
    await vi.waitFor(() => expect(slow.openStreams).toBe(0), { timeout: 5000, interval: 20 });
  });

  it('refuses a stream over the concurrency cap with 429, and ends a stream at its time limit', async () => {
    const capped = await startEmulator({
      apiKeys: ['cap-key'],
      agentStepDelayMs: 60_000,
      limits: { maxConcurrentStreams: 1, streamTimeoutMs: 300 },
    });
    try {
      const controller = new AbortController();
      const first = transportFor(capped, orderStatus, { apiKey: 'cap-key' }).sendMessageStream(
        { message: userMessage({ text: 'Where is order 1001?' }, capped.extensionUri) },
        { signal: controller.signal },
      );
      expect((await first.next()).value?.kind).toBe('task');
      await expect(
        streamAll(capped, orderStatus, { text: 'Where is order 1002?', apiKey: 'cap-key' }),
      ).rejects.toThrow(/429/);
      // The time limit ends the first stream although the agent is still working.
      const rest: unknown[] = [];
      for await (const event of first) rest.push(event);
      expect(rest).toEqual([]);
      expect(capped.openStreams).toBe(0);
      controller.abort();
    } finally {
      await capped.close();
    }
  });

  it('answers other A2A methods as JSON-RPC', async () => {
    const res = await fetch(`${emu.url}/api/agents/v1/a2a/${orderStatus}/stream`, {
      method: 'POST',
      headers: { authorization: `SSWS ${emu.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tasks/get', params: { id: 'no-such-task' } }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32001 } });
  });
});
