import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { HostileCase } from '../../../runner/case.js';
import { milliseconds } from '../../../runner/run-suites.js';

// The published command, from the emulator package this workspace links.
const require = createRequire(import.meta.url);
const BIN = join(
  dirname(require.resolve('@dataworkz/emulator/package.json')),
  'bin',
  'dataworkz-emulator.js',
);

function cli(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  return { child, output: () => output };
}

async function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return { code: child.exitCode, signal: child.signalCode };
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  return { code, signal };
}

/** Item B: a port out of range, which gave Node's internal wording and no usage. */
export const cliBadPort: HostileCase = {
  name: 'B CLI --port 99999',
  run: async () => {
    const started = performance.now();
    const run = cli(['--port', '99999']);
    const { code } = await exited(run.child);
    const text = run.output();
    const clear = /--port must be an integer from 0 to 65535/.test(text) && text.includes('Usage:');
    return {
      outcome: code === 2 && clear ? 'pass' : 'fail',
      note: `exit ${code}; ${clear ? 'the range and the usage' : JSON.stringify(text.split('\n')[0]?.slice(0, 100))}`,
      answerMs: performance.now() - started,
    };
  },
};

/** Item B: SIGTERM the moment the banner appears, which killed the process by signal when it raced the handler. */
export const cliSigterm: HostileCase = {
  name: 'B CLI SIGTERM right after the banner',
  run: async (size) => {
    const tries = size === 'quick' ? 5 : 20;
    const ends = new Map<string, number>();
    let slowest = 0;
    for (let i = 0; i < tries; i++) {
      const run = cli(['--port', '0']);
      const banner = new Promise<void>((resolve) => {
        run.child.stdout?.on('data', () => {
          if (/^export DATAWORKZ_API_KEY=\S+/m.test(run.output())) resolve();
        });
      });
      await Promise.race([banner, exited(run.child)]);
      const signalled = performance.now();
      run.child.kill('SIGTERM');
      const { code, signal } = await exited(run.child);
      slowest = Math.max(slowest, performance.now() - signalled);
      const end = signal ? `killed by ${signal}` : `exit ${code}`;
      ends.set(end, (ends.get(end) ?? 0) + 1);
    }
    return {
      outcome: ends.get('exit 0') === tries ? 'pass' : 'fail',
      note: `${tries} tries: ${[...ends].map(([end, n]) => `${end} x${n}`).join(', ')}`,
      answerMs: slowest,
      extra: `slowest close ${milliseconds(slowest)}`,
    };
  },
};
