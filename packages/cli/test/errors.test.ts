import { spawn } from 'node:child_process';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, cliEnv, freshConfigDir, runCli } from './support/run-cli.js';

const supportKb = seed.systems.supportKb.systemId;
const orderStatus = seed.agents.orderStatus.agentId;

describe('errors and exit codes', () => {
  let emu: Emulator;
  let env: Record<string, string>;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, agentStepDelayMs: 300 });
    env = cliEnv(emu);
  });
  afterAll(() => emu.close());

  it('2 for usage: an unknown command, a missing argument, no address or no credential', async () => {
    const unknown = await runCli(['qna', 'serch'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'serch'/);
    expect(unknown.stderr).toMatch(/search/); // the suggestion
    expect((await runCli(['qna', 'search', supportKb], env)).code).toBe(2);
    const noAddress = await runCli(['qna', 'systems'], { DATAWORKZ_CONFIG_DIR: freshConfigDir() });
    expect(noAddress.code).toBe(2);
    expect(noAddress.stderr).toContain('DATAWORKZ_BASE_URL');
    const noKey = await runCli(['qna', 'systems'], {
      DATAWORKZ_BASE_URL: emu.url,
      DATAWORKZ_CONFIG_DIR: freshConfigDir(),
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('config set api-key');
  });

  it('3 for a refused key, in one line with the status and request id, never the key', async () => {
    const result = await runCli(['qna', 'systems'], { ...env, DATAWORKZ_API_KEY: 'wrong-key-4242' });
    expect(result.code).toBe(3);
    const [line, hint] = result.stderr.trim().split('\n');
    expect(line).toMatch(/^Error: .*401.*request id /);
    expect(hint).toMatch(/DATAWORKZ_API_KEY/);
    expect(result.stderr + result.stdout).not.toContain('wrong-key-4242');
    const debug = await runCli(['--debug', 'qna', 'systems'], {
      ...env,
      DATAWORKZ_API_KEY: 'wrong-key-4242',
    });
    expect(debug.stderr).toMatch(/GET .*\/api\/qna\/v1\/systems/);
    expect(debug.stderr).not.toContain('wrong-key-4242');
  });

  it('4 for what does not exist, 5 for a failed query with its reason', async () => {
    expect((await runCli(['agents', 'card', 'no-such-agent'], env)).code).toBe(4);
    expect((await runCli(['qna', 'get', 'no-such-system'], env)).code).toBe(4);
    emu.faults.add({
      route: 'answerQnaQuestion',
      status: 200,
      body: JSON.stringify({ status: 'FAILED', failureReason: 'The LLM quota is exhausted' }),
    });
    const failed = await runCli(['qna', 'answer', supportKb, 'Anything?'], env);
    expect(failed.code).toBe(5);
    expect(failed.stderr).toContain('The LLM quota is exhausted');
  });

  it('6 when the service cannot be reached', async () => {
    const result = await runCli(['qna', 'systems'], { ...env, DATAWORKZ_BASE_URL: 'http://127.0.0.1:9' });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/--base-url/);
  });

  it('130 on Ctrl-C during an agent run, with the agent’s stream closed', async () => {
    const child = spawn(process.execPath, [bin, 'agents', 'ask', orderStatus, 'Where is order 1001?'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const firstStep = new Promise<void>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (stderr.includes('· ')) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await firstStep;
    expect(emu.openStreams).toBe(1);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('Interrupted.');
    await expect.poll(() => emu.openStreams).toBe(0);
  });
});
