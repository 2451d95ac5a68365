import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dataFolder } from '../../emulator/test/support/data-folder.js';
import { cliEnv, freshConfigDir, runCli } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

// `--llm` takes an LLM's id or its model name (any case), as `qna llms` and `agents llms` print them.
const { supportKb } = seed.systems;
const { orderStatus } = seed.agents;
const { accountAlternate, accountDefault, orderStatusAgent, supportKbSystem } = seed.llms;
let emu: Emulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  env = cliEnv(emu);
});
afterAll(() => emu.close());
afterEach(() => emu.clearRequests());

/** The `llmProviderId` (or A2A `llmId`) each request of the given path ending was sent with. */
const llmsSent = (ending: string, parameter = 'llmProviderId') =>
  emu.requests.filter((r) => r.path.endsWith(ending)).map((r) => new URLSearchParams(r.query).get(parameter));

describe('qna --llm', () => {
  it('answers with the LLM a model name names, in any case, listing the LLMs once', async () => {
    const res = await runInProcess(
      ['qna', 'answer', supportKb.name, 'How do I reset my password?', '--llm', 'MISTRAL-large'],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.length).toBeGreaterThan(0);
    expect(emu.requests.map((r) => r.path)).toEqual([
      '/api/qna/v1/systems',
      `/api/qna/v1/systems/${supportKb.systemId}/llm-providers`,
      `/api/qna/v1/systems/${supportKb.systemId}/answer`,
    ]);
    expect(llmsSent('/answer')).toEqual([supportKbSystem]);
  });

  it('still takes the id, and searches with a name too', async () => {
    expect(
      (await runInProcess(['qna', 'answer', supportKb.name, 'Refunds?', '--llm', accountDefault], env)).code,
    ).toBe(0);
    const search = await runInProcess(['qna', 'search', supportKb.name, 'refunds', '--llm', 'gpt-4o'], env);
    expect(search.code, search.stderr).toBe(0);
    expect([...llmsSent('/answer'), ...llmsSent('/search')]).toEqual([accountDefault, accountDefault]);
  });

  it('refuses an LLM the system lacks with the not-found exit code, listing its LLMs, never answering', async () => {
    const res = await runInProcess(['qna', 'answer', supportKb.name, 'Refunds?', '--llm', 'gpt-5'], env);
    expect(res.code).toBe(4);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(
      `Error: No LLM of the QnA system ${supportKb.systemId} has the id or name "gpt-5". Its LLMs: ` +
        `"gpt-4o" (id ${accountDefault}), "mistral-large" (id ${supportKbSystem}).`,
    );
    expect(res.stderr).not.toContain('qna list');
    expect(llmsSent('/answer')).toEqual([]);
  });

  it('answers a batch with the LLM a name names, read once', async () => {
    const dir = freshConfigDir();
    const input = join(dir, 'questions.txt');
    await writeFile(input, 'How do I return an item?\nWhat are the support hours?\n');
    const out = join(dir, 'answers.jsonl');
    const res = await runInProcess(
      ['qna', 'answer', supportKb.name, '--batch', input, '--out', out, '--llm', 'mistral-large'],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(llmsSent('/answer')).toEqual([supportKbSystem, supportKbSystem]);
    expect(emu.requests.filter((r) => r.path.endsWith('/llm-providers'))).toHaveLength(1);
  });
});

describe('agents --llm', () => {
  it('asks with the account LLM a model name names', async () => {
    const res = await runInProcess(
      ['--json', 'agents', 'ask', orderStatus.name, 'Where is order 1001?', '--llm', 'Claude-3-5-Haiku'],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(llmsSent('/stream', 'llmId')).toEqual([accountAlternate]);
  });

  it("still takes an id, an agent's own LLM included (no list names those)", async () => {
    const res = await runInProcess(
      ['agents', 'ask', orderStatus.agentId, 'Where is order 1001?', '--llm', orderStatusAgent],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(llmsSent('/stream', 'llmId')).toEqual([orderStatusAgent]);
  });

  it('respond and chat take the name too', async () => {
    const respond = await runInProcess(
      ['agents', 'respond', orderStatus.name, 'Where is order 1001?', '--llm', 'gpt-4o'],
      env,
    );
    expect(respond.code, respond.stderr).toBe(0);
    expect(llmsSent('/response')).toEqual([accountDefault]);
    // The chat reads its turns from standard input: a process of its own.
    const chat = await runCli(
      ['agents', 'chat', orderStatus.name, '--llm', 'claude-3-5-haiku'],
      env,
      'Where is order 1001?\n',
    );
    expect(chat.code, chat.stderr).toBe(0);
    expect(llmsSent('/stream', 'llmId')).toEqual([accountAlternate]);
  });

  it('refuses an unknown LLM before asking, listing the account LLMs', async () => {
    const res = await runInProcess(
      ['agents', 'ask', orderStatus.name, 'Where is order 1001?', '--llm', 'gpt-5'],
      env,
    );
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('Error: No LLM of the account has the id or name "gpt-5". Its LLMs: ');
    expect(llmsSent('/stream', 'llmId')).toEqual([]);
  });
});

describe('an LLM name two configurations share', () => {
  let folder: Awaited<ReturnType<typeof dataFolder>>;
  let twins: Emulator;

  beforeAll(async () => {
    folder = await dataFolder([
      { name: 'Runbooks', systemId: 'runbooks-1', llms: { 'llm-a': 'gpt-4o', 'llm-b': 'GPT-4o' } },
    ]);
    twins = await startEmulator({ port: 0, data: folder.dir, embed: false });
  });
  afterAll(async () => {
    await twins.close();
    await folder.remove();
  });

  it('is refused with the usage exit code, each listed with its id; the id picks one', async () => {
    const twinEnv = cliEnv(twins);
    const res = await runInProcess(
      ['qna', 'answer', 'Runbooks', 'When do backups run?', '--llm', 'gpt-4o'],
      twinEnv,
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'Error: "gpt-4o" names 2 LLMs of the QnA system runbooks-1: "gpt-4o" (id llm-a), "GPT-4o" (id llm-b). Give the id instead.',
    );
    const byId = await runInProcess(
      ['qna', 'answer', 'Runbooks', 'When do backups run?', '--llm', 'llm-b'],
      twinEnv,
    );
    expect(byId.code, byId.stderr).toBe(0);
  });
});
