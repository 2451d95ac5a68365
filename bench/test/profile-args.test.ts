import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const program = fileURLToPath(new URL('../dist/profile-main.js', import.meta.url));

describe('pnpm bench:profile', () => {
  it('answers --help with its usage and exit 0, profiling nothing', async () => {
    const { stdout, stderr } = await run(process.execPath, [program, '--help']);
    expect(stdout).toContain('Usage: pnpm bench:profile');
    expect(stdout).toContain('--subject');
    expect(stderr).toBe('');
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--calls', 'x'], '--calls takes a positive whole number, not x'],
    [['--subject', 'nobody'], 'unknown subject nobody'],
    [['--section', 'streaming'], 'unknown section streaming'],
  ])('refuses %j with a sentence and the usage, exit 2, no stack trace', async (args, sentence) => {
    const failure = await run(process.execPath, [program, ...args]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(`bench:profile: ${sentence}`);
    expect(failure?.stderr).toContain('Usage: pnpm bench:profile');
    expect(failure?.stderr).not.toMatch(/\n\s+at /);
  });
});
