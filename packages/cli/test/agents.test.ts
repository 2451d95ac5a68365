import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectMatchesSpec } from '../../emulator/test/support/spec.js';
import { cliEnv, freshConfigDir } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

const orderStatus = seed.agents.orderStatus.agentId;

describe('dataworkz agents against agents speaking A2A v1.0', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, a2aVersion: '1.0' });
  });
  afterAll(() => emu.close());

  it("shows the card's v1.0 interface, and asks with context values over v1.0", async () => {
    const env = cliEnv(emu);
    const card = await runInProcess(['agents', 'card', orderStatus], env);
    expect(card.code, card.stderr).toBe(0);
    expect(card.stdout).toMatch(/endpoint http:\/\/\S+\/stream \(A2A 1\.0, JSONRPC\)/);
    const ask = await runInProcess(
      ['agents', 'ask', orderStatus, 'Where is order 1001?', '--context', 'userName=Ada'],
      env,
    );
    expect(ask.code, ask.stderr).toBe(0);
    expect(ask.stdout.trim()).toMatch(/^Hi Ada! Order 1001/);
    const sent = emu.requests.filter((request) => request.path.endsWith('/stream'));
    expect(sent.map((request) => (JSON.parse(request.body) as { method: string }).method)).toEqual([
      'SendStreamingMessage',
    ]);
  });
});

describe('dataworkz agents', () => {
  let emu: Emulator;
  let env: Record<string, string>;
  let dw: Dataworkz;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    env = cliEnv(emu);
    dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey, logLevel: 'off' });
  });
  afterAll(() => emu.close());

  it('lists agents and their LLMs, and reads a card, each --json matching the spec', async () => {
    const agents = await dw.agents.list();
    const list = await runInProcess(['agents', 'list'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t')[0]),
    ).toEqual(agents.map((a) => a.agentId));
    for (const [args, operationId] of [
      [['agents', 'list'], 'listAgents'],
      [['agents', 'llms'], 'listAgentLlmProviders'],
      [['agents', 'card', orderStatus], 'getAgentCard'],
    ] as const) {
      const json = await runInProcess(['--json', ...args], env);
      expect(json.code, json.stderr).toBe(0);
      expectMatchesSpec(operationId, JSON.parse(json.stdout));
    }
    const card = await runInProcess(['agents', 'card', orderStatus], env);
    expect(card.stdout).toContain(seed.agents.orderStatus.name);
    expect(card.stdout).toContain(`/api/agents/v1/a2a/${orderStatus}/stream`);
  });

  it('asks over A2A: the steps on stderr as they come, the answer alone on stdout', async () => {
    const result = await runInProcess(['agents', 'ask', orderStatus, 'Where is order 1001?'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Order 1001 .*\n$/);
    const steps = result.stderr.trim().split('\n');
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.every((line) => line.startsWith('· '))).toBe(true);
    expect(steps).toContain('· Fetching order 1001 from the orders API');
  });

  it('keeps the conversation: --continue answers the question the agent asked, on its task', async () => {
    const configDir = freshConfigDir();
    const own = { ...env, DATAWORKZ_CONFIG_DIR: configDir };
    const none = await runInProcess(['agents', 'ask', orderStatus, '--continue', 'hello'], own);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no conversation/);
    const asked = await runInProcess(['agents', 'ask', orderStatus, 'Where is my order?'], own);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(/order number/i);
    expect(asked.stderr).toContain(`dataworkz agents ask ${orderStatus} --continue`);
    emu.clearRequests();
    const answered = await runInProcess(['agents', 'ask', orderStatus, '--continue', 'It is 1002'], own);
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toMatch(/1002/);
    const sent = JSON.parse(emu.requests.at(-1)?.body ?? '{}').params.message;
    expect(sent.taskId).toMatch(/\S/);
    expect(sent.contextId).toMatch(/\S/);
  });

  it('sends --context values through the extension, JSON values parsed', async () => {
    const result = await runInProcess(
      ['agents', 'ask', orderStatus, 'Where is my order?', '-c', 'userName=Ada', '-c', 'orderId=1001'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Hi Ada!/);
    expect(result.stdout).toMatch(/1001/);
    const bad = await runInProcess(['agents', 'ask', orderStatus, 'hi', '-c', 'novalue'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--context takes key=value');
  });

  it('prints each stream event with --json, one per line, the last one final', async () => {
    const result = await runInProcess(['--json', 'agents', 'ask', orderStatus, 'Where is order 1001?'], env);
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.length).toBeGreaterThan(2);
    expect(events.at(-1)).toMatchObject({
      kind: 'status-update',
      final: true,
      status: { state: 'completed' },
    });
    expect(result.stderr).toBe('');
  });

  it('answers through the deprecated response call', async () => {
    const result = await runInProcess(['agents', 'respond', orderStatus, 'Where is order 1001?'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/1001/);
    const json = await runInProcess(
      ['--json', 'agents', 'respond', orderStatus, 'Where is order 1001?'],
      env,
    );
    expectMatchesSpec('respondToAgent', JSON.parse(json.stdout));
    const help = await runInProcess(['agents', '--help'], env);
    expect(help.stdout).toMatch(/respond .*deprecated/);
  });
});
