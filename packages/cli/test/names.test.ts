import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

// Systems and agents named by id or by exact name, in any case; each command lists them once.
const { supportKb, productDocs } = seed.systems;
const { orderStatus, productAdvisor } = seed.agents;
let emu: Emulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  env = cliEnv(emu);
});
afterAll(() => emu.close());
afterEach(() => {
  emu.faults.clear();
  emu.clearRequests();
});

const paths = () => emu.requests.map((r) => `${r.method} ${r.path}`);

describe('a QnA system by name', () => {
  it('answers by the exact name in another case, listing the systems once, then asking by id', async () => {
    const res = await runInProcess(
      ['--json', 'qna', 'answer', 'customer SUPPORT knowledge base', 'How do I return an item?'],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ systemId: supportKb.systemId });
    expect(paths()).toEqual([
      'GET /api/qna/v1/systems',
      `GET /api/qna/v1/systems/${supportKb.systemId}/llm-providers`,
      `GET /api/qna/v1/systems/${supportKb.systemId}/answer`,
    ]);
  });

  it('still takes the id', async () => {
    const res = await runInProcess(['--json', 'qna', 'get', productDocs.systemId], env);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ uuid: productDocs.systemId, name: productDocs.name });
  });

  it.each([
    ['search', ['qna', 'search', 'Product Documentation', 'reset password']],
    ['filters', ['qna', 'filters', 'product documentation']],
    ['llms', ['qna', 'llms', 'PRODUCT DOCUMENTATION']],
  ])('qna %s takes the name too', async (_name, args) => {
    const res = await runInProcess(args, env);
    expect(res.code, res.stderr).toBe(0);
    expect(paths()[1]).toContain(`/api/qna/v1/systems/${productDocs.systemId}/`);
  });

  it('refuses an unknown name with the not-found exit code and the close matches, never asking by it', async () => {
    const res = await runInProcess(['qna', 'answer', 'Customer Suport KB', 'How do I return an item?'], env);
    expect(res.code).toBe(4);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(
      `Error: No QnA system has the id or name "Customer Suport KB". Close matches: "${supportKb.name}" (id ${supportKb.systemId}).`,
    );
    expect(res.stderr).toContain('dataworkz qna list');
    expect(paths()).toEqual(['GET /api/qna/v1/systems']);
  });

  it('says so when no name is close', async () => {
    const res = await runInProcess(['qna', 'get', 'zzz'], env);
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('No QnA system has the id or name "zzz". None has a close name.');
  });

  it('refuses an ambiguous name with the usage exit code, listing each match with its id', async () => {
    // Two systems whose names differ only in case, as the list endpoint may send them.
    emu.faults.add({
      route: 'listQnaSystems',
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        [supportKb.systemId]: supportKb.name,
        'kb-copy-7': 'customer support knowledge base',
        [productDocs.systemId]: productDocs.name,
      }),
    });
    const res = await runInProcess(['qna', 'answer', 'Customer Support Knowledge Base', 'Returns?'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `Error: "Customer Support Knowledge Base" names 2 QnA systems: "${supportKb.name}" (id ${supportKb.systemId}), "customer support knowledge base" (id kb-copy-7). Give the id instead.`,
    );
    expect(paths()).toEqual(['GET /api/qna/v1/systems']);
  });
});

describe('an agent by name', () => {
  it('asks by the exact name in another case, and remembers the conversation under the id', async () => {
    const asked = await runInProcess(['agents', 'ask', 'order status assistant', 'Where is my order?'], env);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain('Which order number do you mean?');
    expect(paths()[0]).toBe('GET /api/agents/v1/');
    expect(paths()).toContain(`POST /api/agents/v1/a2a/${orderStatus.agentId}/stream`);
    // --continue finds the conversation whether the agent is named by id or by name.
    const replied = await runInProcess(['agents', 'ask', orderStatus.agentId, '--continue', '1003'], env);
    expect(replied.code, replied.stderr).toBe(0);
    expect(replied.stdout).toContain('Order 1003 for Grace Hopper');
  });

  it.each([
    ['card', ['agents', 'card', 'Product Advisor'], 'Product Advisor v'],
    ['respond', ['agents', 'respond', 'PRODUCT advisor', 'Hi'], "I'm the Product Advisor"],
  ])('agents %s takes the name too', async (_name, args, printed) => {
    const res = await runInProcess(args, env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(printed);
    expect(paths().some((p) => p.includes(productAdvisor.agentId))).toBe(true);
  });

  it('refuses an unknown name with the close matches', async () => {
    const res = await runInProcess(['agents', 'ask', 'Order Assistant', 'Where is order 1001?'], env);
    expect(res.code).toBe(4);
    expect(res.stderr).toContain(
      `Error: No agent has the id or name "Order Assistant". Close matches: "${orderStatus.name}" (id ${orderStatus.agentId}).`,
    );
    expect(paths()).toEqual(['GET /api/agents/v1/']);
  });

  it('refuses an ambiguous name, listing both agents', async () => {
    emu.faults.add({
      route: 'listAgents',
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify([
        { agentId: orderStatus.agentId, name: orderStatus.name, description: '' },
        { agentId: 'agent-copy-2', name: 'ORDER STATUS ASSISTANT', description: '' },
      ]),
    });
    const res = await runInProcess(['agents', 'card', 'Order Status Assistant'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `"Order Status Assistant" names 2 agents: "${orderStatus.name}" (id ${orderStatus.agentId}), "ORDER STATUS ASSISTANT" (id agent-copy-2). Give the id instead.`,
    );
  });
});

it('says in the help that names are taken', async () => {
  const res = await runInProcess(['qna', 'answer', '--help'], env);
  expect(res.stdout).toMatch(/system\s+the QnA system: its id, or its exact name/);
});
