import { spawn } from 'node:child_process';
import { peakRss } from '@dataworkz/measure';

/** One run of the CLI over many questions, as its closing summary line and the process tell it. */
export interface CliRun {
  seconds: number;
  answered: number;
  failed: number;
  /** Highest resident memory of the CLI's process, in MiB (Linux: VmHWM). */
  peakMiB: number | undefined;
}

function peakMiB(pid: number): number | undefined {
  const bytes = peakRss(pid);
  return bytes === undefined ? undefined : bytes / 1024 / 1024;
}

/**
 * Runs the CLI (`argv` after the Node binary) to its exit: wall time from spawn to exit, its peak memory
 * sampled every 100 ms, and the counts of its "N answered, M failed" summary. `what` names the run in
 * the error when no summary was printed.
 */
export async function runCliCounted(
  execPath: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  what: string,
): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(execPath, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  let peak: number | undefined;
  const sampler = setInterval(() => {
    const now = child.pid === undefined ? undefined : peakMiB(child.pid);
    if (now !== undefined) peak = Math.max(peak ?? 0, now);
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  const summary = /(\d+) answered, (\d+) failed/.exec(stderr);
  if (!summary) throw new Error(`${what} printed no summary (exit ${code}): ${stderr.slice(-300)}`);
  return { seconds, answered: Number(summary[1]), failed: Number(summary[2]), peakMiB: peak };
}
