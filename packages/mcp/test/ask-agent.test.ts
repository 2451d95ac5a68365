import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { until } from '@dataworkz/measure';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, connectHttp, connectStdio } from './support/connect.js';

const apiKey = 'mcp-agent-key';
const orderStatus = seed.agents.orderStatus.agentId;

function structuredOf(result: unknown): Record<string, unknown> {
  const call = result as CallToolResult;
  expect(call.isError ?? false, JSON.stringify(call.content)).toBe(false);
  return call.structuredContent as Record<string, unknown>;
}

describe.each([
  ['stdio', (emu: Emulator) => connectStdio({ baseUrl: emu.url, apiKey })],
  ['Streamable HTTP', (emu: Emulator) => connectHttp({ baseUrl: emu.url, apiKey })],
])('ask_agent over %s', (_name, connect) => {
  let emu: Emulator;
  let connection: Connection;
  beforeAll(async () => {
    // Steps 20 ms apart, as a working agent reports them.
    emu = await startEmulator({ port: 0, apiKeys: [apiKey], agentStepDelayMs: 20 });
    connection = await connect(emu);
  });
  afterAll(async () => {
    await connection.close();
    await emu.close();
  });

  it('sends each step of the agent as a progress notification before the answer', async () => {
    const progress: Progress[] = [];
    const result = await connection.client.callTool(
      { name: 'ask_agent', arguments: { agentId: orderStatus, text: 'Where is order 1001?' } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    const answer = structuredOf(result);
    expect(answer.state).toBe('completed');
    const steps = Number(answer.steps);
    expect(steps).toBeGreaterThan(1);
    // Every step reaches the client's handler before the result, the last one too.
    expect(progress.map((update) => update.progress)).toEqual(progress.map((_update, index) => index + 1));
    expect(progress).toHaveLength(steps);
    expect(progress[0]?.message).toMatch(/^SCENARIO_SELECTED/);
  });

  it('returns the question of an agent that asks back, and continues the same task with the reply', async () => {
    const asked = structuredOf(
      await connection.client.callTool({
        name: 'ask_agent',
        arguments: { agentId: orderStatus, text: 'Where is my order?' },
      }),
    );
    expect(asked).toMatchObject({ state: 'input-required', inputRequired: true });
    expect(asked.answer).toMatch(/which order/i);
    expect(asked.taskId).toEqual(expect.any(String));
    expect(asked.contextId).toEqual(expect.any(String));

    const answered = structuredOf(
      await connection.client.callTool({
        name: 'ask_agent',
        arguments: {
          agentId: orderStatus,
          text: 'It is 1001',
          taskId: asked.taskId,
          contextId: asked.contextId,
        },
      }),
    );
    expect(answered).toMatchObject({ state: 'completed', taskId: asked.taskId, contextId: asked.contextId });
    expect(answered.answer).toMatch(/^Order 1001 for Ada Lovelace shipped/);
  });

  it('continues a conversation with the contextId of an earlier answer', async () => {
    const first = structuredOf(
      await connection.client.callTool({
        name: 'ask_agent',
        arguments: { agentId: orderStatus, text: 'Where is order 1003?' },
      }),
    );
    const next = structuredOf(
      await connection.client.callTool({
        name: 'ask_agent',
        arguments: { agentId: orderStatus, text: 'Can I return it?', contextId: first.contextId },
      }),
    );
    expect(next.contextId).toBe(first.contextId);
    expect(next.answer).toMatch(/1003/);
  });

  it('closes the agent stream when the client cancels the call', async () => {
    const slow = await startEmulator({ port: 0, apiKeys: [apiKey], agentStepDelayMs: 30_000 });
    const slowConnection = await connect(slow);
    try {
      const controller = new AbortController();
      const call = slowConnection.client.callTool(
        { name: 'ask_agent', arguments: { agentId: orderStatus, text: 'Where is order 1001?' } },
        undefined,
        { signal: controller.signal },
      );
      await until(() => slow.openStreams > 0, 'the agent stream opened');
      expect(slow.openStreams).toBe(1);
      controller.abort();
      await expect(call).rejects.toThrow(/abort/i);
      // Steps are 30 s apart: the stream can only close this soon because the server closed it.
      // The emulator counts a stream closed once its socket closes, a few ticks after the abort.
      await until(() => slow.openStreams === 0, 'the agent stream closed');
      expect(slow.openStreams).toBe(0);
    } finally {
      await slowConnection.close();
      await slow.close();
    }
  });
});
