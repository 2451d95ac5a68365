import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Measurement, SectionResult } from '../measurement.js';

const section = '9. CLI start';
const require = createRequire(import.meta.url);
const bin = join(dirname(require.resolve('@dataworkz/cli/package.json')), 'bin', 'dataworkz.js');

/** Milliseconds from spawning a Node process to its exit, output discarded. */
function wallMs(execPath: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(performance.now() - start);
      else reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr.slice(0, 300)}`));
    });
  });
}

/**
 * `dataworkz --help` and `dataworkz qna list` (against the emulator) from a cold process, each run
 * alternating with bare `node -e 0` on the same Node: the difference is what the CLI adds to starting Node.
 */
export async function measureCliStart(
  execPath: string,
  target: { url: string; apiKey: string },
  runs: number,
): Promise<SectionResult> {
  const env = {
    ...process.env,
    DATAWORKZ_BASE_URL: target.url,
    DATAWORKZ_API_KEY: target.apiKey,
    NO_COLOR: '1',
  };
  const cases = [
    { metric: 'cold start: dataworkz --help', args: [bin, '--help'], goal: 100 },
    { metric: 'cold start: dataworkz qna list', args: [bin, 'qna', 'list'], goal: undefined },
  ];
  const measurements: Measurement[] = [];
  for (const { metric, args, goal } of cases) {
    const own: number[] = [];
    const bare: number[] = [];
    // One unrecorded run of each, so the file system cache is warm for both.
    await wallMs(execPath, args, env);
    await wallMs(execPath, ['-e', '0'], env);
    for (let i = 0; i < runs; i++) {
      own.push(await wallMs(execPath, args, env));
      bare.push(await wallMs(execPath, ['-e', '0'], env));
    }
    measurements.push({
      section,
      metric,
      subject: '@dataworkz/cli',
      unit: 'ms',
      samples: own,
      baseline: 'node -e 0',
      ...(goal !== undefined ? { goals: [{ kind: 'delta-max' as const, value: goal }] } : {}),
    });
    measurements.push({ section, metric, subject: 'node -e 0', unit: 'ms', samples: bare });
  }
  return { measurements, notes: [] };
}
