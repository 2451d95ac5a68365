import type { Message, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerText,
  finalStatus,
  type StreamEvent,
  streamAll,
  taskUpdates,
  transportFor,
} from './support/a2a.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['hitl-key'] });
});
afterAll(() => emu.close());

const orderStatus = seed.agents.orderStatus.agentId;

interface HitlRequest {
  requestId: string;
  type: string;
  message: string;
  options: string[];
  toolName?: string;
  args?: Record<string, unknown>;
  field?: string;
}

const hitlRequestsOf = (event: TaskStatusUpdateEvent) =>
  event.status.message?.metadata?.hitlRequests as HitlRequest[] | undefined;

/** The one request a task waiting for input carries. */
function openRequest(event: TaskStatusUpdateEvent): HitlRequest {
  const requests = hitlRequestsOf(event);
  expect(requests).toHaveLength(1);
  return requests?.[0] as HitlRequest;
}

/** Sends a reply on the task of `to`: text, and the UI kit's resolution as a data part. */
async function reply(
  target: Emulator,
  to: TaskStatusUpdateEvent,
  reply: { text?: string; resolution?: unknown },
  agentId = orderStatus,
): Promise<StreamEvent[]> {
  const message: Message = {
    kind: 'message',
    messageId: crypto.randomUUID(),
    role: 'user',
    taskId: to.taskId,
    contextId: to.contextId,
    parts: [
      ...(reply.text ? [{ kind: 'text' as const, text: reply.text }] : []),
      ...(reply.resolution === undefined
        ? []
        : [{ kind: 'data' as const, data: reply.resolution as Record<string, unknown> }]),
    ],
  };
  const events: StreamEvent[] = [];
  for await (const event of transportFor(target, agentId).sendMessageStream(
    { message },
    { signal: AbortSignal.timeout(10_000) },
  )) {
    events.push(event);
  }
  return events;
}

const ask = async (target: Emulator, text: string) =>
  finalStatus(await streamAll(target, orderStatus, { text }));

describe('a missing order number', () => {
  it('asks for it with an INPUT_REQUIRED request, and the plain-text reply on the task completes it', async () => {
    const asked = await ask(emu, 'Where is my order?');
    expect(asked.status.state).toBe('input-required');
    expect(answerText(asked)).toBe('Which order number do you mean?');
    const request = openRequest(asked);
    expect(request).toEqual({
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'INPUT_REQUIRED',
      message: 'Which order number do you mean?',
      options: ['submit'],
      field: 'orderId',
    });
    const events = await reply(emu, asked, { text: 'It is 1003' });
    // The task goes on: no second task event, the same task id, the earlier request answered.
    expect(events.some((e) => e.kind === 'task')).toBe(false);
    const done = finalStatus(events);
    expect(done.taskId).toBe(asked.taskId);
    expect(done.status.state).toBe('completed');
    expect(answerText(done)).toBe(
      'Order 1003 for Grace Hopper was placed on 2026-03-13 and is being prepared for shipping.',
    );
    expect(hitlRequestsOf(done)).toBeUndefined();
    const task = await transportFor(emu, orderStatus).getTask({ id: asked.taskId });
    expect(task.status.state).toBe('completed');
  });

  it('takes the number from a resolution data part with userInput', async () => {
    const asked = await ask(emu, 'Can I return my order?');
    const { requestId } = openRequest(asked);
    const done = finalStatus(
      await reply(emu, asked, { resolution: { requestId, selectedOption: 'submit', userInput: '1004' } }),
    );
    expect(done.status.state).toBe('completed');
    expect(answerText(done)).toBe(
      'Order 1004 was delivered on 2026-01-06. As a Standard customer, Alan Turing has 30 days. The return window closed on 2026-02-05.',
    );
  });

  it('asks again when the reply still names no order', async () => {
    const asked = await ask(emu, 'Where is my order?');
    const again = finalStatus(await reply(emu, asked, { text: 'the blue one' }));
    expect(again.taskId).toBe(asked.taskId);
    expect(again.status.state).toBe('input-required');
    expect(openRequest(again).type).toBe('INPUT_REQUIRED');
  });
});

it('asks which order a return question means when the customer has several, with the orders as options', async () => {
  const asked = await ask(emu, 'Can I return my order? I am ada@example.com');
  expect(asked.status.state).toBe('input-required');
  expect(answerText(asked)).toBe(
    'Which order do you mean: 1001 (Nimbus Sensor Kit, shipped) or 1002 (Nimbus Gateway, delivered)?',
  );
  const request = openRequest(asked);
  expect(request).toMatchObject({ type: 'CLARIFICATION_REQUIRED', options: ['1001', '1002'] });
  // Order numbers in the question itself do not count as the answer.
  const again = finalStatus(await reply(emu, asked, { text: 'the one I like best' }));
  expect(again.status.state).toBe('input-required');
  expect(openRequest(again)).toMatchObject({ type: 'CLARIFICATION_REQUIRED', options: ['1001', '1002'] });
  const done = finalStatus(
    await reply(emu, again, {
      resolution: { requestId: openRequest(again).requestId, selectedOption: '1002' },
    }),
  );
  expect(answerText(done)).toBe(
    'Order 1002 was delivered on 2026-01-24. As a Gold customer, Ada Lovelace has 60 days. It can be returned until 2026-03-25.',
  );
});

it('continues a task from its own exchange when the context conversation was forgotten', async () => {
  const small = await startEmulator({ apiKeys: ['small-key'], limits: { maxConversations: 1 } });
  try {
    const advisor = seed.agents.productAdvisor.agentId;
    const asked = finalStatus(await streamAll(small, advisor, { text: 'What changed in 2.1?' }));
    expect(answerText(asked)).toBe('Which two versions should I compare (for example 2.0 and 2.1)?');
    // A second conversation pushes the first out of the conversation store.
    await streamAll(small, advisor, { text: 'How do I reset my password?' });
    const done = finalStatus(await reply(small, asked, { text: 'Against 2.0, please' }, advisor));
    expect(done.status.state).toBe('completed');
    expect(answerText(done)).toMatch(/^In 2\.1: .* In 2\.0: /);
  } finally {
    await small.close();
  }
});

describe('comparing versions', () => {
  const advisor = seed.agents.productAdvisor.agentId;

  it('answers "what changed" from each version’s release notes, also when the versions come as a reply', async () => {
    const direct = finalStatus(await streamAll(emu, advisor, { text: 'What changed between 2.0 and 2.1?' }));
    expect(answerText(direct)).toMatch(
      /^In 2\.0: Nimbus 2\.0 moves to container images.* In 2\.1: Nimbus 2\.1 adds ARM64/,
    );
    const asked = finalStatus(await streamAll(emu, advisor, { text: 'What changed in the new version?' }));
    expect(answerText(asked)).toBe('Which two versions should I compare (for example 2.0 and 2.1)?');
    // The reply names the versions only: the question is still the request's.
    const done = finalStatus(await reply(emu, asked, { text: '1.2 and 2.0' }, advisor));
    expect(answerText(done)).toMatch(
      /^In 1\.2: Nimbus 1\.2 adds scheduled exports.* In 2\.0: Nimbus 2\.0 moves/,
    );
  });

  it('compares what the question is about in each version', async () => {
    const done = finalStatus(
      await streamAll(emu, advisor, { text: 'Compare API rate limits in 1.2 and 2.1' }),
    );
    expect(answerText(done)).toMatch(
      /^In 1\.2: The Nimbus 1\.2 REST API allows .* In 2\.1: The Nimbus 2\.1 REST API allows /,
    );
  });
});

describe('cancelling an order waits for approval', () => {
  // Each test starts its own emulator: a cancellation changes that emulator's orders.
  const withEmulator = async (run: (target: Emulator) => Promise<void>) => {
    const target = await startEmulator({ apiKeys: ['cancel-key'] });
    try {
      await run(target);
    } finally {
      await target.close();
    }
  };

  const askToCancel = async (target: Emulator) => {
    const asked = await ask(target, 'Please cancel order 1003');
    expect(asked.status.state).toBe('input-required');
    expect(answerText(asked)).toBe(
      'Order 1003 (Nimbus Server licence for Grace Hopper, placed on 2026-03-13) has not shipped yet. Shall I cancel order 1003?',
    );
    const request = openRequest(asked);
    expect(request).toMatchObject({
      type: 'APPROVAL_REQUIRED',
      options: ['approve', 'reject'],
      toolName: 'orders.cancelOrder',
      args: { orderId: '1003' },
    });
    return { asked, request };
  };

  it('approved with a resolution data part: the order is cancelled and later answers say so', () =>
    withEmulator(async (target) => {
      const { asked, request } = await askToCancel(target);
      const events = await reply(target, asked, {
        resolution: { requestId: request.requestId, selectedOption: 'approve' },
      });
      expect(taskUpdates(events).map((u) => u.tool ?? u.type)).toEqual([
        'SCENARIO_SELECTED',
        'orders.cancelOrder',
        'COMPOSING',
      ]);
      const done = finalStatus(events);
      expect(done.status.state).toBe('completed');
      expect(answerText(done)).toBe(
        'Order 1003 (Nimbus Server licence) is cancelled as of 2026-03-14; nothing will be shipped or charged.',
      );
      const status = await ask(target, 'What is the status of order 1003?');
      expect(answerText(status)).toBe('Order 1003 for Grace Hopper was cancelled on 2026-03-14.');
      expect(status.status.message?.parts).toContainEqual({
        kind: 'data',
        data: { orderId: '1003', status: 'CANCELLED', cancelledDate: '2026-03-14' },
        metadata: { type: 'STRUCTURED_RESPONSE' },
      });
      // Another emulator keeps its own orders.
      expect(answerText(await ask(emu, 'What is the status of order 1003?'))).toMatch(
        /is being prepared for shipping\.$/,
      );
    }));

  it('approved with a plain yes', () =>
    withEmulator(async (target) => {
      const { asked } = await askToCancel(target);
      const done = finalStatus(await reply(target, asked, { text: 'yes, cancel it' }));
      expect(answerText(done)).toMatch(/^Order 1003 \(Nimbus Server licence\) is cancelled/);
    }));

  it('rejected with a plain no: nothing changes', () =>
    withEmulator(async (target) => {
      const { asked } = await askToCancel(target);
      const events = await reply(target, asked, { text: 'no' });
      expect(taskUpdates(events).some((u) => u.tool === 'orders.cancelOrder')).toBe(false);
      const done = finalStatus(events);
      expect(done.status.state).toBe('completed');
      expect(answerText(done)).toBe('Understood: order 1003 stays as it is; nothing was changed.');
      expect(answerText(await ask(target, 'What is the status of order 1003?'))).toBe(
        'Order 1003 for Grace Hopper was placed on 2026-03-13 and is being prepared for shipping.',
      );
    }));

  it('refuses an unknown requestId, an unknown option or a malformed resolution and asks again', () =>
    withEmulator(async (target) => {
      const { asked, request } = await askToCancel(target);
      const refusals = [
        [
          { requestId: 'no-such-request', selectedOption: 'approve' },
          /^Request no-such-request is not the open question/,
        ],
        [
          { requestId: request.requestId, selectedOption: 'maybe' },
          /^"maybe" is not an option here; choose one of: approve, reject\./,
        ],
        [
          { requestId: request.requestId, selectedOption: 42 },
          /^The reply could not be read: selectedOption must be a non-empty string\./,
        ],
        [
          { requestId: request.requestId, selectedOption: 'approve', modifiedArgs: { orderId: '1001' } },
          /^This question takes no modified arguments\./,
        ],
      ] as const;
      for (const [resolution, refusal] of refusals) {
        const again = finalStatus(await reply(target, asked, { resolution }));
        expect(again.taskId).toBe(asked.taskId);
        expect(again.status.state).toBe('input-required');
        expect(answerText(again)).toMatch(refusal);
        expect(answerText(again)).toMatch(/Shall I cancel order 1003\?$/);
        // The same request stays open, so the caller can still resolve it.
        expect(openRequest(again)).toEqual(request);
      }
      const done = finalStatus(
        await reply(target, asked, {
          resolution: { requestId: request.requestId, selectedOption: 'reject' },
        }),
      );
      expect(answerText(done)).toBe('Understood: order 1003 stays as it is; nothing was changed.');
    }));

  it('asks for a yes or no when the reply is neither', () =>
    withEmulator(async (target) => {
      const { asked } = await askToCancel(target);
      const again = finalStatus(await reply(target, asked, { text: 'hmm, what do you think?' }));
      expect(again.status.state).toBe('input-required');
      expect(answerText(again)).toMatch(
        /^Please answer yes or no\. Order 1003 .* Shall I cancel order 1003\?$/,
      );
      expect(openRequest(again).type).toBe('APPROVAL_REQUIRED');
    }));

  it('explains why a shipped, delivered or cancelled order cannot be cancelled, without asking', async () => {
    const shipped = await ask(emu, 'Cancel order 1001');
    expect(shipped.status.state).toBe('completed');
    expect(answerText(shipped)).toBe(
      'Order 1001 shipped on 2026-03-02 with DHL, so it can no longer be cancelled; once it arrives (expected 2026-03-05) you can return it.',
    );
    expect(answerText(await ask(emu, 'Cancel order 1002'))).toMatch(
      /^Order 1002 was delivered on 2026-01-24, so it cannot be cancelled/,
    );
    expect(answerText(await ask(emu, 'Cancel order 1005'))).toBe('Order 1005 is already cancelled.');
  });
});

describe('tasks/cancel of a task waiting for input', () => {
  it('cancels it; it can no longer be continued', async () => {
    const asked = await ask(emu, 'Please cancel order 1003');
    expect(asked.status.state).toBe('input-required');
    const transport = transportFor(emu, orderStatus);
    const cancelled = await transport.cancelTask({ id: asked.taskId });
    expect(cancelled.status.state).toBe('canceled');
    expect((await transport.getTask({ id: asked.taskId })).status.state).toBe('canceled');
    await expect(reply(emu, asked, { text: 'yes' })).rejects.toThrow(/terminal state \(canceled\)/);
    // Nothing was cancelled in the orders API.
    expect(answerText(await ask(emu, 'What is the status of order 1003?'))).toMatch(
      /is being prepared for shipping\.$/,
    );
  });
});

describe('real failures still end the task failed', () => {
  it('a message with no text and no question waiting', async () => {
    const message: Message = {
      kind: 'message',
      messageId: crypto.randomUUID(),
      role: 'user',
      parts: [{ kind: 'data', data: { note: 'no text' } }],
    };
    const events: StreamEvent[] = [];
    for await (const event of transportFor(emu, orderStatus).sendMessageStream(
      { message },
      { signal: AbortSignal.timeout(10_000) },
    )) {
      events.push(event);
    }
    const final = finalStatus(events);
    expect(final.status.state).toBe('failed');
    expect(answerText(final)).toBe('The message has no text to answer');
  });

  it('a resolution sent to a new task, which has no question waiting', async () => {
    const message: Message = {
      kind: 'message',
      messageId: crypto.randomUUID(),
      role: 'user',
      parts: [{ kind: 'data', data: { requestId: 'r-1', selectedOption: 'approve' } }],
    };
    const events: StreamEvent[] = [];
    for await (const event of transportFor(emu, orderStatus).sendMessageStream(
      { message },
      { signal: AbortSignal.timeout(10_000) },
    )) {
      events.push(event);
    }
    const final = finalStatus(events);
    expect(final.status.state).toBe('failed');
    expect(answerText(final)).toBe('The message answers a request, but no question of this task is waiting');
  });
});
