import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exportLines, seed } from '@dataworkz/emulator';
import { afterEach, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];

function run(args: string[]) {
  const child = spawn(process.execPath, ['bin/dataworkz-emulator.js', ...args], {
    cwd: packageDir,
    stdio: 'pipe',
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started = new Promise<{ url: string; key: string }>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const url = /^export DATAWORKZ_BASE_URL=(http:\/\/\S+)$/m.exec(stdout)?.[1];
      const key = /^export DATAWORKZ_API_KEY=(\S+)$/m.exec(stdout)?.[1];
      if (url && key) resolve({ url, key });
    });
    void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  // Runs that are expected to exit never start; keep their rejection from being reported as unhandled.
  started.catch(() => {});
  return { child, started, exited, output: () => ({ stdout, stderr }) };
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('the dataworkz-emulator command', () => {
  it('needs the build', () => {
    expect(existsSync(`${packageDir}/dist/js/bin.js`)).toBe(true);
  });

  it('starts, prints its URL and key, serves the API, and stops on SIGTERM', async () => {
    const cli = run(['--port', '0', '--api-key', 'cli-key']);
    const { url, key } = await cli.started;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(key).toBe('cli-key');
    const res = await fetch(`${url}/api/agents/v1/`, {
      headers: { authorization: `SSWS ${key}` },
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(3);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });

  it('prints the lines that point a shell at it, and nothing else on stdout', async () => {
    const cli = run(['--port', '0', '--api-key', 'first', '--api-key', 'second']);
    const { url } = await cli.started;
    await expect.poll(() => cli.output().stdout.includes('# console:')).toBe(true);
    expect(cli.output().stdout).toBe(
      [
        `# Dataworkz emulator listening on ${url} (Ctrl-C stops it)`,
        `export DATAWORKZ_BASE_URL=${url}`,
        'export DATAWORKZ_API_KEY=first',
        `# console: ${url}/console`,
        '',
      ].join('\n'),
    );
    // The second key works too; an odd key is quoted for the shell.
    const second = await fetch(`${url}/api/agents/v1/`, {
      headers: { authorization: 'SSWS second' },
      signal: AbortSignal.timeout(5000),
    });
    expect(second.status).toBe(200);
    expect(exportLines({ url, apiKey: "it's" })).toEqual([
      `# Dataworkz emulator listening on ${url} (Ctrl-C stops it)`,
      `export DATAWORKZ_BASE_URL=${url}`,
      `export DATAWORKZ_API_KEY='it'\\''s'`,
    ]);
  });

  it('generates a key when none is given', async () => {
    const cli = run(['--port', '0']);
    const { url, key } = await cli.started;
    expect(key).toMatch(/^dwz_/);
    const res = await fetch(`${url}/api/qna/v1/systems`, {
      headers: { authorization: `SSWS ${key}` },
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(200);
  });

  it('passes CORS and the extension base through', async () => {
    const cli = run([
      '--port',
      '0',
      '--api-key',
      'k',
      '--cors',
      'http://localhost:5173',
      '--extension-base',
      'https://ext.example',
    ]);
    const { url } = await cli.started;
    const res = await fetch(`${url}/api/agents/v1/`, {
      headers: { authorization: 'SSWS k', origin: 'http://localhost:5173' },
      signal: AbortSignal.timeout(5000),
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const list = (await res.json()) as { agentId: string }[];
    const card = await fetch(`${url}/api/agents/v1/a2a/${list[0]?.agentId}/.well-known/agent-card.json`, {
      headers: { authorization: 'SSWS k' },
      signal: AbortSignal.timeout(5000),
    });
    expect(JSON.stringify(await card.json())).toContain('https://ext.example/agents/ext/provided-values/v1');
  });

  it('prints help', async () => {
    const cli = run(['--help']);
    expect(await cli.exited).toBe(0);
    expect(cli.output().stdout).toMatch(/^Usage: dataworkz-emulator/);
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--port', 'eighty'], /--port must be an integer from 0 to 65535, not 'eighty'/],
    [['--port', '99999'], /--port must be an integer from 0 to 65535, not '99999'/],
    [['--port=-1'], /--port must be an integer from 0 to 65535, not '-1'/],
    [['--agent-step-delay-ms=-5'], /--agent-step-delay-ms must be an integer from 0 to \d+, not '-5'/],
    [['--answer-artifact-chunk-chars', 'ten'], /--answer-artifact-chunk-chars must be an integer from 0/],
    [['--answer-temperature', '1.5'], /--answer-temperature must be a number from 0 to 1, not '1.5'/],
    [['--answer-seed', '7'], /--answer-seed needs --answer-temperature/],
    [['--max-json-depth', '0'], /--max-json-depth must be a positive integer, not '0'/],
    [['--max-text-length', '1e3'], /--max-text-length must be a positive integer/],
    [['--fault', '{"route":"noSuchRoute"}'], /--fault: Fault rule field 'route' must be .*listQnaSystems/],
    [['--fault', '{"headers":{"x-bad":"€"}}'], /--fault: Fault rule field 'headers'/],
    [['--fault', 'not json'], /--fault must be a JSON object/],
    [['--log', 'loud'], /--log must be one of off, error, warn, info, debug/],
    [['--record', 'http://127.0.0.1:9'], /--record needs --cassette <file.har>/],
    [['--record', 'ftp://x', '--cassette', 'c.har'], /--record must be the http\(s\) base URL/],
    [['--cassette', 'c.har'], /--cassette is the file --record writes/],
    [['--replay', 'c.har', '--replay-speed', 'fast'], /--replay-speed must be a non-negative number/],
    [['--replay-fallback', 'emulate'], /need --replay <file.har>/],
    [['--drift-report', 'd.json'], /--drift-report needs --record/],
    [['--record-unreadable-bodies'], /--record-unreadable-bodies needs --record/],
  ])('refuses %j with a message, the usage and exit code 2', async (args, message) => {
    const cli = run(args);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toMatch(message);
    expect(cli.output().stderr).toContain('Usage: dataworkz-emulator');
  });

  it('exits 1 without the usage when a cassette or a state folder cannot be read', async () => {
    for (const args of [
      ['--replay', '/no/such/cassette.har'],
      ['--import', '/no/such/state'],
    ]) {
      const cli = run(args);
      expect(await cli.exited).toBe(1);
      expect(cli.output().stderr).toMatch(/Cannot read .*\/no\/such/);
      expect(cli.output().stderr).not.toContain('Usage:');
    }
  });

  it('exits 1 without the usage when the emulator cannot start', async () => {
    const cli = run(['--data', '/no/such/folder']);
    expect(await cli.exited).toBe(1);
    expect(cli.output().stderr).toMatch(/Cannot read the folder/);
    expect(cli.output().stderr).not.toContain('Usage:');
  });

  it('applies start-up faults, every limit flag and the step delay', async () => {
    const limitFlags = [
      ['--max-body-bytes', '2048'],
      ['--request-timeout-ms', '20000'],
      ['--stream-timeout-ms', '60000'],
      ['--max-concurrent-streams', '8'],
      ['--max-text-length', '10'],
      ['--max-json-depth', '16'],
      ['--max-turns-per-context', '10'],
      ['--max-conversations', '10'],
      ['--max-conversation-bytes', '100000'],
      ['--max-tasks', '10'],
      ['--max-task-bytes', '100000'],
      ['--max-recorded-requests', '10'],
      ['--max-recorded-bytes', '100000'],
      ['--max-recorded-body-bytes', '100'],
    ].flat();
    const cli = run([
      '--port',
      '0',
      '--api-key',
      'k',
      '--agent-step-delay-ms',
      '1',
      '--fault',
      '{"route":"listAgents","status":503}',
      '--fault',
      '{"route":"listQnaSystems","status":502}',
      ...limitFlags,
    ]);
    const { url } = await cli.started;
    const get = (path: string) =>
      fetch(`${url}${path}`, { headers: { authorization: 'SSWS k' }, signal: AbortSignal.timeout(5000) });
    expect((await get('/api/agents/v1/')).status).toBe(503);
    expect((await get('/api/qna/v1/systems')).status).toBe(502);
    const long = await get(
      `/api/qna/v1/systems/${seed.systems.productDocs.systemId}/search?query=eleven-char`,
    );
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ code: 'TEXT_TOO_LONG' });
    const big = await fetch(`${url}/api/agents/v1/`, {
      method: 'POST',
      headers: { authorization: 'SSWS k' },
      body: 'x'.repeat(4096),
      signal: AbortSignal.timeout(5000),
    });
    expect(big.status).toBe(413);
  });

  it('prints nothing on stderr for requests the A2A server refuses', async () => {
    const cli = run(['--port', '0', '--api-key', 'k']);
    const { url } = await cli.started;
    const list = (await (
      await fetch(`${url}/api/agents/v1/`, {
        headers: { authorization: 'SSWS k' },
        signal: AbortSignal.timeout(5000),
      })
    ).json()) as { agentId: string }[];
    const res = await fetch(`${url}/api/agents/v1/a2a/${list[0]?.agentId}/stream`, {
      method: 'POST',
      headers: { authorization: 'SSWS k', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/resubscribe', params: { id: 'none' } }),
      signal: AbortSignal.timeout(5000),
    });
    expect(await res.text()).toContain('-32001');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.output().stderr).toBe('');
  });

  it('closes cleanly on a SIGTERM sent the moment the banner appears', async () => {
    // The handlers are installed before the banner is written; a bounded number of tries.
    for (let i = 0; i < 8; i++) {
      const cli = run(['--port', '0']);
      await cli.started;
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
      expect(cli.child.signalCode).toBeNull();
    }
    // Eight starts of the emulator, each loading the sentence encoder: slow on a loaded machine.
  }, 90_000);
});
