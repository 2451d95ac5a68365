import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, obj, q } from './support/http.js';
import { expectMatchesSpec } from './support/spec.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['resp-key'] });
});
afterAll(() => emu.close());

async function respond(
  agentId: string,
  userText: string,
  body?: unknown,
  extra: Record<string, string> = {},
) {
  const res = await call(
    emu,
    `/api/agents/v1/${agentId}/response?${q({ userText, llmProviderId: seed.llms.accountDefault, ...extra })}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
  );
  return res;
}

const data = (res: { json: unknown }) => obj(obj(res.json).data);

describe('the deprecated response call', () => {
  it('fills answer, scenario, queryPlan, probe and the structured response', async () => {
    const res = await respond(seed.agents.orderStatus.agentId, 'Can I return order 1004?');
    expectMatchesSpec('respondToAgent', res.json);
    expect(obj(res.json).status).toBe('OK');
    expect(data(res)).toMatchObject({
      question: 'Can I return order 1004?',
      systemName: 'Order Status Assistant',
      systemId: seed.agents.orderStatus.agentId,
      type: 'agent',
      status: 'COMPLETED',
      scenario: 'Return eligibility',
      answer:
        'Order 1004 was delivered on 2026-01-06. As a Standard customer, Alan Turing has 30 days. The return window closed on 2026-02-05.',
      queryPlan:
        'select scenario: Return eligibility; call orders.getOrder(1004); call crm.getCustomer(C-102); call qna.search(returns policy days of delivery); compose',
      structuredResponse: {
        scenario: 'Return eligibility',
        responseType: 'Finish',
        structuredOutput: '{"orderId":"1004","status":"DELIVERED","eligible":false,"returnBy":"2026-02-05"}',
      },
    });
    expect(typeof data(res).probe).toBe('string');
  });

  it('leaves structuredResponse out for agents without one, and probe out on include_probe=false', async () => {
    const res = await respond(seed.agents.productAdvisor.agentId, 'How do I export a report?', undefined, {
      properties: 'include_probe=false',
    });
    expectMatchesSpec('respondToAgent', res.json);
    const d = data(res);
    expect('structuredResponse' in d).toBe(false);
    expect('probe' in d).toBe(false);
    expect(d.answer).toMatch(/To export a report, open it, choose Export and pick a format (\[\d\])+\./);
  });

  it('personalises with contextValues.userName', async () => {
    const res = await respond(seed.agents.productAdvisor.agentId, 'How do I reset my password?', {
      contextValues: { userName: 'Ada' },
    });
    expect(data(res).answer).toMatch(/^Hi Ada! /);
  });

  it('reads the conversation history: a bare order number continues the earlier question', async () => {
    const res = await respond(seed.agents.orderStatus.agentId, '1003', {
      conversationHistory: [
        { by: 'USER', text: 'Where is my order?' },
        { by: 'AI', text: 'Which order number do you mean?' },
      ],
    });
    expect(data(res)).toMatchObject({
      scenario: 'Order status',
      answer: 'Order 1003 for Grace Hopper was placed on 2026-03-13 and is being prepared for shipping.',
    });
  });

  it('answers text outside every scenario with what the agent can do', async () => {
    const res = await respond(seed.agents.policyHelper.agentId, 'Sing me a song');
    expectMatchesSpec('respondToAgent', res.json);
    expect(data(res)).toMatchObject({
      status: 'COMPLETED',
      scenario: '',
      answer:
        'Sorry, I can\'t help with that. I\'m the Support Policy Helper. I can explain how long your hardware is under warranty, tell you how long delivery takes to your region and open a support ticket for a problem with your hardware. For example, ask: "How long is my warranty?"',
    });
    expect('failureReason' in data(res)).toBe(false);
    const greeting = await respond(seed.agents.orderStatus.agentId, 'Hello, what can you do for me?');
    expect(data(greeting)).toMatchObject({
      status: 'COMPLETED',
      answer: expect.stringMatching(
        /^Hello! I'm the Order Status Assistant\. I can tell you where an order is/,
      ),
      structuredResponse: { responseType: 'Finish', structuredOutput: '{}' },
    });
  });

  it('states a question back as INPUT_REQUIRED; the reply in the conversation history continues it', async () => {
    const asked = await respond(seed.agents.orderStatus.agentId, 'Where is my order?');
    expectMatchesSpec('respondToAgent', asked.json);
    expect(data(asked)).toMatchObject({
      status: 'INPUT_REQUIRED',
      scenario: 'Order status',
      answer: 'Which order number do you mean?',
      structuredResponse: { responseType: 'AskUser', agentResponse: 'Which order number do you mean?' },
    });
    const done = await respond(seed.agents.orderStatus.agentId, 'It is 1001', {
      conversationHistory: [
        { by: 'USER', text: 'Where is my order?' },
        { by: 'AI', text: String(data(asked).answer) },
      ],
    });
    expect(data(done)).toMatchObject({
      status: 'COMPLETED',
      answer: 'Order 1001 for Ada Lovelace shipped on 2026-03-02 with DHL and is expected on 2026-03-05.',
    });
  });

  it('asks before cancelling; a no keeps the order and a yes cancels it for later calls', async () => {
    const agentId = seed.agents.orderStatus.agentId;
    const own = await startEmulator({ apiKeys: ['cancel-key'] });
    const respondTo = (userText: string, body?: unknown) =>
      call(
        own,
        `/api/agents/v1/${agentId}/response?${q({ userText, llmProviderId: seed.llms.accountDefault })}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
      );
    try {
      const asked = data(await respondTo('Please cancel order 1003'));
      expect(asked).toMatchObject({
        status: 'INPUT_REQUIRED',
        scenario: 'Cancel an order',
        answer: expect.stringMatching(/Shall I cancel order 1003\?$/),
      });
      const history = [
        { by: 'USER', text: 'Please cancel order 1003' },
        { by: 'AI', text: String(asked.answer) },
      ];
      expect(data(await respondTo('no', { conversationHistory: history }))).toMatchObject({
        status: 'COMPLETED',
        answer: 'Understood: order 1003 stays as it is; nothing was changed.',
      });
      expect(data(await respondTo('Where is order 1003?')).answer).toMatch(/being prepared for shipping\.$/);
      expect(data(await respondTo('yes', { conversationHistory: history }))).toMatchObject({
        status: 'COMPLETED',
        answer:
          'Order 1003 (Nimbus Server licence) is cancelled as of 2026-03-14; nothing will be shipped or charged.',
        queryPlan: 'select scenario: Cancel an order; call orders.cancelOrder(1003); compose',
      });
      expect(data(await respondTo('Where is order 1003?')).answer).toBe(
        'Order 1003 for Grace Hopper was cancelled on 2026-03-14.',
      );
    } finally {
      await own.close();
    }
  });

  it.each([
    ['not JSON', '{'],
    ['an array', '[]'],
    ['a bad history', JSON.stringify({ conversationHistory: [{ by: 'BOT', text: 'x' }] })],
    ['history not an array', JSON.stringify({ conversationHistory: 'x' })],
    ['contextValues not an object', JSON.stringify({ contextValues: [1] })],
  ])('refuses a body that is %s with 400', async (_name, body) => {
    const res = await call(
      emu,
      `/api/agents/v1/${seed.agents.orderStatus.agentId}/response?${q({ userText: 'x', llmProviderId: seed.llms.accountDefault })}`,
      { method: 'POST', body },
    );
    expect(res.status).toBe(400);
    expectMatchesSpec('respondToAgent', res.json, '4XX');
  });

  it('requires userText and llmProviderId, and an LLM of the account or the agent', async () => {
    const path = `/api/agents/v1/${seed.agents.orderStatus.agentId}/response`;
    expect(
      obj(
        (await call(emu, `${path}?${q({ llmProviderId: seed.llms.accountDefault })}`, { method: 'POST' }))
          .json,
      ),
    ).toMatchObject({
      status: 400,
      message: "Required request parameter 'userText' is not present",
    });
    expect((await call(emu, `${path}?${q({ userText: 'x' })}`, { method: 'POST' })).status).toBe(400);
    expect(
      (
        await call(emu, `${path}?${q({ userText: 'x', llmProviderId: seed.llms.productDocsSystem })}`, {
          method: 'POST',
        })
      ).status,
    ).toBe(400);
    const own = await call(
      emu,
      `${path}?${q({ userText: 'Where is order 1001?', llmProviderId: seed.llms.orderStatusAgent })}`,
      {
        method: 'POST',
      },
    );
    expect(own.status).toBe(200);
  });

  it('answers 404 for an unknown agent', async () => {
    const res = await respond('6f1c2b9e-0000-4c1e-9b7a-1d2e3f4a5b6c', 'hi');
    expect(res.status).toBe(404);
    expect(obj(res.json).message).toBe('No agent with id: 6f1c2b9e-0000-4c1e-9b7a-1d2e3f4a5b6c');
  });
});
