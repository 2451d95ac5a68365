import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Emulator, type EmulatorOptions, seed, startEmulator } from '@dataworkz/emulator';
import type { Measurement, SectionResult } from '../measurement.js';
import { type CliRun, runCliCounted } from './cli-process.js';

const section = '9. CLI eval';
const require = createRequire(import.meta.url);
const bin = join(dirname(require.resolve('@dataworkz/cli/package.json')), 'bin', 'dataworkz.js');
const supportKb = seed.systems.supportKb;

/** A golden set of `questions` rows in the vendor's JSONL form, over the emulator's support corpus. */
function writeGolden(file: string, questions: number): void {
  const passage =
    'Refunds are issued to the original payment method within 5 business days after the returned item arrives at the warehouse.';
  const lines = Array.from({ length: questions }, (_, i) =>
    JSON.stringify({
      query_id: `q${i}`,
      question: `When are refunds issued for order ${i}?`,
      gt_answer: 'Within 5 business days after the item arrives.',
      gt_context: [passage],
      source: 'bench',
    }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** Runs `dataworkz qna eval` of `questions` rows against `emulator`; wall time from spawn to exit. */
async function runEval(
  execPath: string,
  emulator: Emulator,
  questions: number,
  nodeArgs: readonly string[] = [],
): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'dataworkz-bench-eval-'));
  try {
    const golden = join(dir, 'golden.jsonl');
    writeGolden(golden, questions);
    const args = [
      'qna',
      'eval',
      golden,
      '--system',
      supportKb.systemId,
      '--out',
      join(dir, 'out'),
      '--concurrency',
      '32',
    ];
    const env = {
      ...process.env,
      DATAWORKZ_BASE_URL: emulator.url,
      DATAWORKZ_API_KEY: emulator.apiKey,
      DATAWORKZ_CONFIG_DIR: dir,
    };
    return await runCliCounted(execPath, [...nodeArgs, bin, ...args], env, 'the evaluation');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The rate limit as a client meets it, measured on the same emulator: requests are sent 32 at a time
 * until the bucket is empty, then the ones that succeed over `seconds` are counted.
 */
async function measureLimit(emulator: Emulator, seconds: number): Promise<number> {
  const url = `${emulator.url}/api/qna/v1/systems`;
  const headers = { Authorization: `SSWS ${emulator.apiKey}` };
  const call = async () => {
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    return response.status;
  };
  const first = await call();
  if (first !== 200) throw new Error(`the emulator answered ${first} to a list of systems`);
  // Empty the bucket first: its burst is not the rate.
  while ((await Promise.all(Array.from({ length: 32 }, call))).every((status) => status === 200));
  let ok = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < end) if ((await call()) === 200) ok += 1;
    }),
  );
  return ok / ((performance.now() - started) / 1000);
}

export interface EvalPlan {
  /** Golden rows of the rate-limited run. */
  questions: number;
  /** Golden rows of the large run whose memory is compared with a small one's (a tenth of it). */
  memoryQuestions: number;
  /** Seconds over which the rate limit is measured. */
  limitSeconds: number;
}

/**
 * `qna eval` under the emulator's rate limit (50 requests/s, burst 10) against that limit measured in
 * the same run, and its peak memory over a large golden set next to a small one (it should not grow:
 * results stream to disk, the stats are running sums).
 */
export async function measureCliEval(execPath: string, plan: EvalPlan): Promise<SectionResult> {
  const out: Measurement[] = [];
  const options: EmulatorOptions = {
    port: 0,
    embed: 'word-vectors',
    limits: { rateLimit: 50, rateLimitBurst: 10 },
  };
  const limited = await startEmulator(options);
  let run: CliRun;
  let limit: number;
  try {
    limit = await measureLimit(limited, plan.limitSeconds);
    // The bucket refills (burst 10 at 50/s) before the evaluation starts.
    await new Promise((resolve) => setTimeout(resolve, 500));
    run = await runEval(execPath, limited, plan.questions);
  } finally {
    await limited.close();
  }
  const metric = 'questions/s under a 50 requests/s rate limit (burst 10), spawn to exit';
  out.push({
    section,
    metric,
    subject: 'dataworkz qna eval',
    unit: 'questions/s',
    samples: [run.answered / run.seconds],
    baseline: 'the limit, measured',
    goals: [{ kind: 'ratio-min', value: 0.9 }],
  });
  out.push({ section, metric, subject: 'the limit, measured', unit: 'requests/s', samples: [limit] });
  out.push({
    section,
    metric: 'failed questions under the rate limit',
    subject: 'dataworkz qna eval',
    unit: 'questions',
    samples: [run.failed],
    goals: [{ kind: 'max', value: 0 }],
  });

  const capped = ['--max-old-space-size=64', '--max-semi-space-size=2'];
  const free = await startEmulator({ port: 0, embed: 'word-vectors' });
  let small: CliRun;
  let large: CliRun;
  try {
    const few = Math.max(1, Math.round(plan.memoryQuestions / 10));
    small = await runEval(execPath, free, few, capped);
    large = await runEval(execPath, free, plan.memoryQuestions, capped);
  } finally {
    await free.close();
  }
  if (small.peakMiB !== undefined && large.peakMiB !== undefined) {
    const memoryMetric = 'peak RSS of qna eval, heap capped (64 MiB old, 2 MiB semi-space)';
    out.push({
      section,
      metric: memoryMetric,
      subject: `${large.answered.toLocaleString('en')} questions`,
      unit: 'MiB',
      samples: [large.peakMiB],
      baseline: `${small.answered.toLocaleString('en')} questions`,
      goals: [{ kind: 'ratio-max', value: 1.2 }],
    });
    out.push({
      section,
      metric: memoryMetric,
      subject: `${small.answered.toLocaleString('en')} questions`,
      unit: 'MiB',
      samples: [small.peakMiB],
    });
  }
  const ratio = run.answered / run.seconds / limit;
  const notes = [
    `qna eval: ${run.answered} questions (${run.failed} failed) in ${run.seconds.toFixed(1)} s under a limit measured at ${limit.toFixed(1)} requests/s: ${ratio.toFixed(3)}× the limit, CLI start, name resolution and the report included. Memory: ${small.answered} and ${large.answered} questions with a 64 MiB heap.`,
  ];
  return { measurements: out, notes };
}
