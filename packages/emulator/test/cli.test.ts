import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      const key = /API key: (\S+)/.exec(stdout)?.[1];
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
    expect(existsSync(`${packageDir}/dist/cli.js`)).toBe(true);
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
    [['--port', 'eighty'], /--port must be a non-negative integer/],
    [['--data', '/no/such/folder'], /Cannot read the folder/],
  ])('refuses %j with a message and a non-zero exit', async (args, message) => {
    const cli = run(args);
    expect(await cli.exited).not.toBe(0);
    expect(cli.output().stderr).toMatch(message);
  });
});
