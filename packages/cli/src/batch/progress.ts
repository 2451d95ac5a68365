import type { Output } from '../output.js';

/** What a batch shows while it runs: a bar on a terminal (done/total, rate, ETA, failures), nothing in a pipe. */
export interface BatchProgress {
  done(failed: boolean): void;
  stop(): void;
}

export async function batchProgress(
  out: Pick<Output, 'interactive' | 'json'>,
  total: number,
): Promise<BatchProgress> {
  if (!out.interactive || out.json) return { done: () => undefined, stop: () => undefined };
  const { default: progress } = await import('cli-progress');
  const bar = new progress.SingleBar(
    {
      stream: process.stderr,
      format: '{bar} {value}/{total} | {rate}/s | ETA {eta_formatted} | {failed} failed',
      hideCursor: true,
      etaBuffer: 50,
    },
    progress.Presets.shades_classic,
  );
  const started = performance.now();
  let failed = 0;
  let finished = 0;
  bar.start(total, 0, { rate: '0.0', failed });
  return {
    done: (questionFailed) => {
      finished += 1;
      if (questionFailed) failed += 1;
      const seconds = (performance.now() - started) / 1000;
      bar.increment({ rate: (finished / Math.max(seconds, 0.001)).toFixed(1), failed });
    },
    stop: () => bar.stop(),
  };
}
