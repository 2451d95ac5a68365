import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { bin, freshConfigDir } from './support/run-cli.js';

const emulatorBin = fileURLToPath(new URL('../../emulator/bin/dataworkz-emulator.js', import.meta.url));

import { runInProcess } from './support/run-in-process.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Started {
  child: ChildProcess;
  /** Everything it printed on stdout up to its last line (the console's). */
  lines: string[];
  exited: Promise<number | null>;
}

/** Runs `dataworkz emulator` with these flags until it has printed its lines. */
function start(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [bin, 'emulator', ...args], {
    env: { PATH: process.env.PATH ?? '', DATAWORKZ_CONFIG_DIR: freshConfigDir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`dataworkz emulator exited with ${code}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('# console: ')) resolve({ child, lines, exited });
    });
  });
}

/** What a shell that evaluated the lines has in its environment. */
async function shellEnvironment(lines: string[]): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)('sh', [
    '-c',
    `${lines.join('\n')}\nprintf '%s\\n%s' "$DATAWORKZ_BASE_URL" "$DATAWORKZ_API_KEY"`,
  ]);
  const [baseUrl, apiKey] = stdout.split('\n');
  return { DATAWORKZ_BASE_URL: baseUrl as string, DATAWORKZ_API_KEY: apiKey as string };
}

describe('dataworkz emulator', () => {
  it('prints the export lines; with --api-key a shell that took them keeps working after a restart', async () => {
    const first = await start(['--port', '0', '--api-key', 'dev-key', '--api-key', 'other-key']);
    const env = await shellEnvironment(first.lines);
    const url = env.DATAWORKZ_BASE_URL as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.lines).toEqual([
      `# Dataworkz emulator listening on ${url} (Ctrl-C stops it)`,
      `export DATAWORKZ_BASE_URL=${url}`,
      'export DATAWORKZ_API_KEY=dev-key',
      `# console: ${url}/console`,
    ]);
    const shell = { ...env, DATAWORKZ_CONFIG_DIR: freshConfigDir() };
    // The emulator runs in a process of its own; the commands pointed at it run in this one.
    const before = await runInProcess(['qna', 'list'], shell);
    expect(before.code, before.stderr).toBe(0);
    // Every key given is accepted.
    expect((await runInProcess(['qna', 'list'], { ...shell, DATAWORKZ_API_KEY: 'other-key' })).code).toBe(0);

    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect((await runInProcess(['qna', 'list'], shell)).code).toBe(6);

    const port = new URL(url).port;
    const second = await start(['--port', port, '--api-key', 'dev-key']);
    expect(second.lines).toEqual(first.lines);
    const after = await runInProcess(['qna', 'list'], shell);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toBe(before.stdout);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('makes a new key each start without --api-key', async () => {
    const [one, two] = await Promise.all([start(['--port', '0']), start(['--port', '0'])]);
    const keyOf = (lines: string[]) => lines.find((line) => line.startsWith('export DATAWORKZ_API_KEY='));
    expect(keyOf(one.lines)).toMatch(/^export DATAWORKZ_API_KEY=dwz_/);
    expect(keyOf(one.lines)).not.toBe(keyOf(two.lines));
  });

  it("takes the emulator's own flags, with its defaults and help", async () => {
    const cli = await runInProcess(['emulator', '--help'], {});
    const own = await promisify(execFile)(process.execPath, [emulatorBin, '--help']);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe(own.stdout.replace('Usage: dataworkz-emulator', 'Usage: dataworkz emulator'));
    expect(cli.stdout).toContain('--port <n>');
    expect(cli.stdout).toContain('default 8787');
    for (const flag of ['--jwt-secret', '--fault', '--cors', '--max-text-length'])
      expect(cli.stdout).toContain(flag);

    const wrong = await runInProcess(['emulator', '--port', '99999'], {});
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /^dataworkz emulator: --port must be an integer from 0 to 65535, not '99999'\n\nUsage: dataworkz emulator/,
    );

    // A flag only the emulator's own command line had: a fault rule in force from the start.
    const faulty = await start([
      '--port',
      '0',
      '--fault',
      '{"route":"listQnaSystems","status":503,"times":100}',
    ]);
    const env = { ...(await shellEnvironment(faulty.lines)), DATAWORKZ_CONFIG_DIR: freshConfigDir() };
    const list = await runInProcess(['qna', 'list'], env);
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain('503');
    faulty.child.kill('SIGINT');
    expect(await faulty.exited).toBe(0);
  });
});
