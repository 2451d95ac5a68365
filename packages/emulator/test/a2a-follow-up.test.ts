import type { Message, Task } from '@a2a-js/sdk';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerText, finalStatus, type StreamEvent, transportFor } from './support/a2a.js';

// What the A2A TCK's mandatory cases do with an open task (message/send, then follow-ups that carry
// only the taskId, then tasks/get with historyLength), sent through the official @a2a-js/sdk client.
const orderStatus = seed.agents.orderStatus.agentId;
const scenarioNames = ['Order status', 'Return eligibility', 'Customer orders', 'Cancel an order'];
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['follow-up-key'] });
});
afterAll(() => emu.close());

const text = (words: string, taskId?: string): Message => ({
  kind: 'message',
  messageId: crypto.randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text: words }],
  ...(taskId ? { taskId } : {}),
});

/** message/send, whose result must be the task (the TCK reads its id from the result). */
async function send(message: Message): Promise<Task> {
  const result = await transportFor(emu, orderStatus).sendMessage({ message });
  if (result.kind !== 'task') throw new Error(`message/send answered a ${result.kind}, not a task`);
  return result;
}

const hitlRequestOf = (task: Task) =>
  (task.status.message?.metadata?.hitlRequests as Record<string, unknown>[] | undefined)?.[0];

describe('the Order Status Assistant keeps a task it cannot yet answer open', () => {
  it('asks which scenario is meant, and a follow-up with the taskId alone continues the same task', async () => {
    const first = await send(text('Hello from TCK!'));
    expect(first.status.state).toBe('input-required');
    expect(answerText({ ...first, kind: 'status-update', taskId: first.id, final: true })).toBe(
      "Hello! I'm the Order Status Assistant. Which of these do you need: order status, return eligibility, customer orders or cancel an order?",
    );
    expect(hitlRequestOf(first)).toMatchObject({
      type: 'CLARIFICATION_REQUIRED',
      field: 'scenario',
      options: scenarioNames,
    });

    const second = await send(text('Follow-up message for the existing task', first.id));
    expect(second.id).toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    expect(second.status.state).toBe('input-required');
    // The same question stays open, asked again with the reason.
    expect(hitlRequestOf(second)?.requestId).toBe(hitlRequestOf(first)?.requestId);
    expect(second.status.message?.parts[0]).toMatchObject({
      kind: 'text',
      text: expect.stringMatching(/^I still can't tell which of these you need\. Hello! I'm the Order/),
    });

    // A reply naming a scenario runs it; here it asks for the order number, then completes.
    const third = await send(text('order status', first.id));
    expect(third.id).toBe(first.id);
    expect(third.status.state).toBe('input-required');
    expect(hitlRequestOf(third)).toMatchObject({ type: 'INPUT_REQUIRED', field: 'orderId' });
    const done = await send(text('1001', first.id));
    expect(done).toMatchObject({ id: first.id, contextId: first.contextId, status: { state: 'completed' } });
    expect(done.status.message?.metadata).toMatchObject({ scenario: 'Order status' });
  });

  it('takes the UI kit resolution choosing a scenario', async () => {
    const first = await send(text('I need some help'));
    const requestId = hitlRequestOf(first)?.requestId;
    const chosen = await send({
      kind: 'message',
      messageId: crypto.randomUUID(),
      role: 'user',
      taskId: first.id,
      contextId: first.contextId,
      parts: [{ kind: 'data', data: { requestId, selectedOption: 'Customer orders' } }],
    });
    expect(chosen.status.state).toBe('input-required');
    expect(chosen.status.message?.metadata).toMatchObject({ scenario: 'Customer orders' });
    expect(hitlRequestOf(chosen)).toMatchObject({ type: 'INPUT_REQUIRED', field: 'email' });
  });

  it('keeps the task open over several follow-ups, and tasks/get honours historyLength', async () => {
    const created = await send(text('Initial message for history test'));
    for (const n of [1, 2, 3]) {
      const followed = await send(text(`Follow-up message ${n} for history test`, created.id));
      expect(followed).toMatchObject({ id: created.id, status: { state: 'input-required' } });
    }
    const transport = transportFor(emu, orderStatus);
    // Without historyLength the SDK's handler sends no history; the TCK allows that, so ask for all.
    const full = await transport.getTask({ id: created.id, historyLength: 100 });
    const limited = await transport.getTask({ id: created.id, historyLength: 2 });
    // Four user messages and the agent's four questions.
    expect(full.history?.filter((m) => m.role === 'user')).toHaveLength(4);
    expect(full.history?.length).toBeGreaterThan(2);
    expect(limited.history).toHaveLength(2);
    expect(limited.history).toEqual(full.history?.slice(-2));
  });

  it('continues the open task over message/stream too, without a second task event', async () => {
    const first = await send(text('Hello from TCK!'));
    const events: StreamEvent[] = [];
    for await (const event of transportFor(emu, orderStatus).sendMessageStream(
      { message: { ...text('What is the status of order 1002?', first.id), contextId: first.contextId } },
      { signal: AbortSignal.timeout(10_000) },
    )) {
      events.push(event);
    }
    expect(events.some((e) => e.kind === 'task')).toBe(false);
    const done = finalStatus(events);
    expect(done).toMatchObject({
      taskId: first.id,
      contextId: first.contextId,
      status: { state: 'completed' },
    });
    expect(answerText(done)).toMatch(/^Order 1002 /);
  });

  it('refuses a follow-up to a task that has completed, as A2A requires', async () => {
    const first = await send(text('Hello from TCK!'));
    await send(text('What is the status of order 1001?', first.id));
    await expect(send(text('And order 1002?', first.id))).rejects.toThrow(/terminal state/);
  });
});

it('answers small talk without asking back, so a greeting still completes', async () => {
  const hello = await send(text('Hello!'));
  expect(hello.status.state).toBe('completed');
});
