import { type AgentTaskUpdateEvent, askAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const orderStatus = seed.agents.orderStatus.agentId;
let emu: Emulator;
let dw: Dataworkz;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey, maxRetries: 0 });
});
afterAll(() => emu.close());

describe('askAgent', () => {
  it("answers with the agent's final answer and the steps it reported, each told as it came", async () => {
    const told: { step: number; type: string }[] = [];
    const onStep = (event: AgentTaskUpdateEvent, step: number) => {
      told.push({ step, type: event.type });
    };
    const answer = await askAgent(dw, orderStatus, { text: 'Where is order 1001?', onStep });
    expect(answer).toMatchObject({
      agentId: orderStatus,
      state: 'completed',
      inputRequired: false,
      taskId: expect.any(String),
      contextId: expect.any(String),
    });
    expect(answer.answer).toMatch(/1001/);
    expect(answer.steps).toBeGreaterThan(0);
    expect(told).toEqual(
      Array.from({ length: answer.steps }, (_, i) => ({ step: i + 1, type: 'task-update' })),
    );
  });

  it('says when the agent asks back, with the ids to answer on, and continues with the reply', async () => {
    const question = await askAgent(dw, orderStatus, { text: 'Where is my order?' });
    expect(question).toMatchObject({ state: 'input-required', inputRequired: true });
    const reply = await askAgent(dw, orderStatus, {
      text: '1003',
      taskId: question.taskId,
      contextId: question.contextId,
    });
    expect(reply).toMatchObject({ state: 'completed', inputRequired: false, contextId: question.contextId });
    expect(reply.answer).toMatch(/1003/);
  });
});
