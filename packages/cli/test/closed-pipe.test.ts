import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bin, freshConfigDir } from './support/run-cli.js';

/** Runs the bin with its standard output closed before it writes (a reader that stopped early). */
function runWithClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '', DATAWORKZ_CONFIG_DIR: freshConfigDir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The read end goes before the process has started: its first write meets a closed pipe (EPIPE).
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a reader that closes the pipe early (`dataworkz --help | head`)', () => {
  it('ends the command quietly, with no stack trace', async () => {
    for (const args of [['--help'], ['completion', 'bash']]) {
      const { code, stderr } = await runWithClosedStdout(args);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
  });
});
