import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type EmulatorOptions, seed, startEmulator } from '@dataworkz/emulator';
import type { Measurement, SectionResult } from '../measurement.js';
import { type CliRun, runCliCounted } from './cli-process.js';

const section = '9. CLI batch';
const require = createRequire(import.meta.url);
const bin = join(dirname(require.resolve('@dataworkz/cli/package.json')), 'bin', 'dataworkz.js');
const systemId = seed.systems.supportKb.systemId;

/** Runs `dataworkz qna <command> --batch` against an emulator started with `options`; wall time from spawn to exit. */
async function runBatch(
  execPath: string,
  command: 'answer' | 'search',
  questions: number,
  concurrency: number,
  options: EmulatorOptions,
  nodeArgs: readonly string[] = [],
): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'dataworkz-bench-batch-'));
  // The cheap ranking: every question is new, and the sentence encoder spends milliseconds on each (100,000
  // took over 11 minutes on its own); this section measures the CLI, section 7 the emulator's ranking.
  const emulator = await startEmulator({ port: 0, embed: 'word-vectors', ...options });
  try {
    const input = join(dir, 'questions.txt');
    writeFileSync(
      input,
      Array.from({ length: questions }, (_, i) => `How do I return item ${i}?`).join('\n'),
    );
    const args = [bin, 'qna', command, systemId, '--batch', input, '--out', join(dir, 'out.jsonl')];
    const env = {
      ...process.env,
      DATAWORKZ_BASE_URL: emulator.url,
      DATAWORKZ_API_KEY: emulator.apiKey,
      DATAWORKZ_CONFIG_DIR: dir,
    };
    return await runCliCounted(
      execPath,
      [...nodeArgs, ...args, '--concurrency', String(concurrency)],
      env,
      'the batch',
    );
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface BatchPlan {
  /** Questions for each throughput run. */
  questions: number;
  /** Questions of the large run whose memory is compared with a small one's. */
  memoryQuestions: number;
}

/**
 * Batch throughput against its ideal: 32 in flight with a 200 ms answer latency is at most 160
 * answers/s; under a 50 requests/s rate limit, at most 50/s with no question failed. And the CLI's
 * peak memory over a large input next to a small one (it should not grow with the input).
 */
export async function measureCliBatch(execPath: string, plan: BatchPlan): Promise<SectionResult> {
  const out: Measurement[] = [];
  const latency = await runBatch(execPath, 'answer', plan.questions, 32, {
    faults: [{ route: 'answerQnaQuestion', latencyMs: 200, times: plan.questions * 2 }],
  });
  const metric = 'answers/s, 32 in flight, 200 ms per answer';
  out.push({
    section,
    metric,
    subject: '@dataworkz/cli --batch',
    unit: 'answers/s',
    samples: [latency.answered / latency.seconds],
    baseline: 'ideal: 32 / 0.2 s',
    goals: [{ kind: 'ratio-min', value: 0.9 }],
  });
  out.push({ section, metric, subject: 'ideal: 32 / 0.2 s', unit: 'answers/s', samples: [160] });

  // A bucket of 10, as gateways allow a small burst; the ideal counts it: the first 10 at once, then 50/s.
  const burst = 10;
  const limited = await runBatch(execPath, 'answer', plan.questions, 32, {
    limits: { rateLimit: 50, rateLimitBurst: burst },
  });
  const limitedMetric = 'answers/s under a 50 requests/s rate limit (burst 10)';
  const limitedIdeal = plan.questions / ((plan.questions - burst) / 50);
  out.push({
    section,
    metric: limitedMetric,
    subject: '@dataworkz/cli --batch',
    unit: 'answers/s',
    samples: [limited.answered / limited.seconds],
    baseline: 'ideal: 10 at once, then 50/s',
    goals: [{ kind: 'ratio-min', value: 0.9 }],
  });
  out.push({
    section,
    metric: limitedMetric,
    subject: 'ideal: 10 at once, then 50/s',
    unit: 'answers/s',
    samples: [limitedIdeal],
  });
  out.push({
    section,
    metric: 'failed questions under the rate limit',
    subject: '@dataworkz/cli --batch',
    unit: 'questions',
    samples: [limited.failed],
    goals: [{ kind: 'max', value: 0 }],
  });

  // With the heap capped, V8 collects instead of growing: what is left is what the batch keeps. Uncapped,
  // RSS follows the allocation rate (garbage not yet collected), not what is held; Node 24's young
  // generation grows with it too, outside the old-space cap, so both are capped.
  const capped = ['--max-old-space-size=64', '--max-semi-space-size=2'];
  // The baseline run: a tenth of the large one, at most 1,000 (the full plan's 1,000 against 100,000).
  const few = Math.min(1000, Math.round(plan.memoryQuestions / 10));
  const small = await runBatch(execPath, 'search', few, 32, {}, capped);
  const large = await runBatch(execPath, 'search', plan.memoryQuestions, 32, {}, capped);
  if (small.peakMiB !== undefined && large.peakMiB !== undefined) {
    const memoryMetric = 'peak RSS of the CLI, heap capped (64 MiB old, 2 MiB semi-space)';
    out.push({
      section,
      metric: memoryMetric,
      subject: `${plan.memoryQuestions.toLocaleString('en')} searches`,
      unit: 'MiB',
      samples: [large.peakMiB],
      baseline: `${few.toLocaleString('en')} searches`,
      goals: [{ kind: 'ratio-max', value: 1.2 }],
    });
    out.push({
      section,
      metric: memoryMetric,
      subject: `${few.toLocaleString('en')} searches`,
      unit: 'MiB',
      samples: [small.peakMiB],
    });
  }
  const notes = [
    `Batch runs: ${latency.answered} answered in ${latency.seconds.toFixed(1)} s with latency; ${limited.answered} answered, ${limited.failed} failed in ${limited.seconds.toFixed(1)} s under the rate limit; ${large.answered} searches (${large.failed} failed) in ${large.seconds.toFixed(1)} s for memory, with a 64 MiB heap: a batch that kept its answers would run out of heap.`,
  ];
  return { measurements: out, notes };
}
