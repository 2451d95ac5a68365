import { seed } from '@dataworkz/emulator';
import { outcomeOf, postRpc, streamRequest } from '@dataworkz/measure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorProcess } from '../src/emulator-process.js';

// Far above the default cap, so that only the patterns' own cost is left to measure.
const LENGTH = 400_000;
let emu: EmulatorProcess;

beforeAll(async () => {
  emu = await EmulatorProcess.start({
    apiKeys: ['long-text-key'],
    limits: { maxTextLength: 2 * LENGTH, maxBodyBytes: 4 * 1024 * 1024 },
  });
});
afterAll(() => emu?.close());

const { orderStatus, productAdvisor, policyHelper } = seed.agents;

// Each text is shaped against one pattern the agents run on user text. A quadratic pattern takes
// minutes at this length; the generous time-out below only keeps a regression from hanging the run.
const cases: Array<[string, string, string, string]> = [
  [
    'a long word after an order question',
    orderStatus.agentId,
    `Where is my order ${'a'.repeat(LENGTH)}`,
    'input-required',
  ],
  [
    'an @ with no domain dot',
    orderStatus.agentId,
    `List the orders of ${'b'.repeat(LENGTH)}@${'c'.repeat(LENGTH / 4)}`,
    'input-required',
  ],
  [
    'a long word in a product question',
    productAdvisor.agentId,
    `How do I reset ${'q'.repeat(LENGTH)}`,
    'completed',
  ],
  ['a long run of dots', productAdvisor.agentId, `How do I reset ${'.'.repeat(LENGTH)}a`, 'completed'],
  ['a long number', productAdvisor.agentId, `What changed between ${'1'.repeat(LENGTH)}`, 'input-required'],
  ['many short words', policyHelper.agentId, `warranty ${'ab@ x.y '.repeat(LENGTH / 8)}`, 'completed'],
];

describe('agents read long texts in time linear in their length', () => {
  it.each(cases)('%s', async (_name, agentId, text, state) => {
    const answer = await postRpc(emu, agentId, streamRequest(text), 60_000);
    expect(answer.status).toBe(200);
    expect(outcomeOf(answer)).toBe(state);
  });

  it('and keep answering others meanwhile', async () => {
    const long = postRpc(
      emu,
      orderStatus.agentId,
      streamRequest(`Where is my order ${'a'.repeat(LENGTH)}`),
      60_000,
    );
    const short = await postRpc(emu, orderStatus.agentId, streamRequest('Where is order 1001?'), 60_000);
    expect(outcomeOf(short)).toBe('completed');
    expect(outcomeOf(await long)).toBe('input-required');
  });
});
