import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, cliEnv, freshConfigDir, runCli } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

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

  it('0 for --version and -V, printing the package’s version alone, with no address or credential needed', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag], { DATAWORKZ_CONFIG_DIR: freshConfigDir() });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });

  it('3 for a refused key, in one line with the status and request id, never the key', async () => {
    const result = await runCli(['qna', 'systems'], { ...env, DATAWORKZ_API_KEY: 'wrong-key-4242' });
    expect(result.code).toBe(3);
    const [line, hint] = result.stderr.trim().split('\n');
    expect(line).toMatch(/^Error: 401 .*\(request id req-\d+\)$/);
    // The status is said once: the message begins with it.
    expect(line?.match(/401/g)).toHaveLength(1);
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

  it('2 for a base URL the service’s own paths are not found under, naming the address and where it came from', async () => {
    const result = await runCli(['qna', 'list'], { ...env, DATAWORKZ_BASE_URL: `${emu.url}/api` });
    expect(result.code).toBe(2);
    const [line, hint, ...rest] = result.stderr.trim().split('\n');
    expect(line).toMatch(/^Error: 404 No endpoint GET \/api\/api\/qna\/v1\/systems \(request id req-\d+\)$/);
    expect(hint).toBe(
      `The service address ${emu.url}/api ends in /api, which every path adds again: use ${emu.url}. It comes from DATAWORKZ_BASE_URL.`,
    );
    expect(rest).toEqual([]);
    // Any other prefix, given as a flag: the same exit code, the flag named.
    const prefixed = await runCli(['--base-url', `${emu.url}/dataworkz`, 'agents', 'card', 'x'], env);
    expect(prefixed.code).toBe(2);
    expect(prefixed.stderr).toContain(`The service address ${emu.url}/dataworkz is likely wrong`);
    expect(prefixed.stderr).toContain('It comes from --base-url.');
    expect(prefixed.stderr).not.toContain('agents list');
  });

  it('a hint for what is not found names the list that has it, never the command that failed', async () => {
    // What the hints say; the exit codes above and below come from real processes.
    const system = await runInProcess(['qna', 'get', 'no-such-system'], env);
    expect(system.stderr.trim().split('\n')[1]).toBe('List what exists with `dataworkz qna list`.');
    const agent = await runInProcess(['agents', 'card', 'no-such-agent'], env);
    expect(agent.stderr.trim().split('\n')[1]).toBe('List what exists with `dataworkz agents list`.');
    const document = await runInProcess(['qna', 'document', supportKb, 'no-such-document'], env);
    expect(document.code).toBe(4);
    expect(document.stderr).toMatch(
      /^Error: 404 No document with id no-such-document .*\(request id req-\d+\)\n/,
    );
    expect(document.stderr).toContain('dataworkz qna search');
    emu.faults.add({ route: 'listQnaSystems', status: 404, times: 1 });
    const list = await runInProcess(['qna', 'list'], env);
    expect(list.stderr).not.toMatch(/`dataworkz qna list`/);
  });

  it('6 when the service cannot be reached', async () => {
    const result = await runCli(['qna', 'systems'], { ...env, DATAWORKZ_BASE_URL: 'http://127.0.0.1:9' });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('http://127.0.0.1:9');
    expect(result.stderr).toContain('it comes from DATAWORKZ_BASE_URL.');
    const flag = await runCli(['--base-url', 'http://127.0.0.1:9', 'qna', 'systems'], env);
    expect(flag.stderr).toContain('it comes from --base-url.');
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
