/**
 * `node bench/dist/gate-main.js [runs] [temperature]`: how the `qna eval` gate fares against noise. On
 * the docs' 30-question golden set, the emulator's answers varying at `temperature` (default 0.5),
 * each repetition count (1 and 3) gets a clean baseline run, then `runs` (default 20) clean runs, each
 * against it (a failed gate is a false alarm), and `runs` runs with a planted drop (a tenth of the
 * answers given a chunk about something else, so `context_recall` falls by 0.1 on average): a caught
 * drop is a regression of `context_recall`. Both gates are read from the same runs: per question (a
 * results.csv baseline, 95 % bootstrap interval) and mean against mean (a stats.csv baseline). Every
 * run is seeded, so the figures repeat.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Comparison,
  compareWithBaseline,
  type EvaluationResult,
  evaluateQna,
  readBaseline,
  readGolden,
} from '@dataworkz/cli/eval';
import { Dataworkz } from '@dataworkz/client';
import { seed, startEmulator } from '@dataworkz/emulator';

const runs = Number(process.argv[2] ?? 20);
const temperature = Number(process.argv[3] ?? 0.5);
if (!Number.isInteger(runs) || runs < 1 || !(temperature >= 0 && temperature <= 1)) {
  console.error('usage: gate-main.js [runs (default 20)] [temperature 0..1 (default 0.5)]');
  process.exit(2);
}
const golden = fileURLToPath(new URL('../../apps/docs/public/eval/support-golden-30.csv', import.meta.url));
const system = seed.systems.supportKb.name;
const questions: string[] = [];
for await (const row of readGolden(golden)) questions.push(row.question);
const MAX_DROP = 0.05;
const CONFIDENCE = 0.95;
const PLANTED_SHARE = 0.1;
const UNRELATED = 'Nimbus dashboards can be exported as PDF from the reports page.';

/**
 * Exactly a tenth of the answers given the wrong chunk: of each round of askings (the first answer to
 * every question, then the second...), the three questions that come first in an order drawn by a hash
 * of the run and the round. So the planted drop of a metric is a tenth of its baseline on those
 * questions: 0.1 for `context_recall`, which is 1 on every question of the set.
 */
function plantingFetch(run: number, questions: readonly string[]): typeof fetch {
  const asked = new Map<string, number>();
  const planted = (round: number) =>
    new Set(
      [...questions]
        .sort((a, b) => rank(run, round, a) - rank(run, round, b))
        .slice(0, Math.round(questions.length * PLANTED_SHARE)),
    );
  const rounds = new Map<number, Set<string>>();
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (!url.pathname.endsWith('/answer') || !response.ok) return response;
    const question = url.searchParams.get('questionText') ?? '';
    const round = (asked.get(question) ?? 0) + 1;
    asked.set(question, round);
    if (!rounds.has(round)) rounds.set(round, planted(round));
    if (!rounds.get(round)?.has(question)) return response;
    const body = (await response.json()) as Record<string, unknown>;
    const degraded = {
      ...body,
      answer: '\n\nI do not know.',
      context: [{ link: 's3a://bucket/reports.md', data: UNRELATED, source: 'docs' }],
      probe: {
        id: 'pipeline',
        children: [{ id: 'MERGE_NEIGHBOURING_CONTEXT', data: { Input: [{ Content: UNRELATED }] } }],
      },
    };
    return new Response(JSON.stringify(degraded), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

async function run(
  answerSeed: number,
  repeat: number,
  planted: boolean,
): Promise<EvaluationResult & { dir: string }> {
  const emu = await startEmulator({
    port: 0,
    embed: 'word-vectors',
    answerVariation: { temperature, seed: answerSeed },
  });
  const dir = mkdtempSync(join(tmpdir(), 'gate-rates-'));
  try {
    const client = new Dataworkz({
      baseUrl: emu.url,
      apiKey: emu.apiKey,
      ...(planted ? { fetch: plantingFetch(answerSeed, questions) } : {}),
    });
    const result = await evaluateQna({ client, golden, systems: [system], outDir: dir, repeat });
    return { ...result, dir };
  } finally {
    await emu.close();
  }
}

/** A run's per-question scores, read back from its results.csv as a baseline would be. */
async function groupsOf(file: string) {
  const read = await readBaseline(file);
  if (read.kind !== 'questions') throw new Error(`${file} holds no questions`);
  return read.groups;
}

const rank = (run: number, round: number, question: string) =>
  createHash('sha256').update(`${run}|${round}|${question}`).digest().readUInt32BE(0);

const regressed = (comparison: Comparison, metric?: string) =>
  comparison.metrics.some(
    (row) => row.verdict === 'regressed' && (metric === undefined || row.metric === metric),
  );
const sd = (values: readonly number[]) => {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1));
};

console.log(
  `# qna eval gate: ${runs} runs each, 30 questions, temperature ${temperature}, max drop ${MAX_DROP}, ${CONFIDENCE * 100} %`,
);
for (const repeat of [1, 3]) {
  const base = await run(1, repeat, false);
  const perQuestion = await readBaseline(base.files.results);
  const means = await readBaseline(base.files.stats);
  const tally = { falseAlarms: 0, meanFalseAlarms: 0, caught: 0, caughtAny: 0, meanCaught: 0 };
  const drops: number[] = [];
  const halfWidths = new Map<string, number[]>();
  const differenceSds = new Map<string, number[]>();
  const cleanDirs: string[] = [base.dir];
  for (let i = 0; i < runs; i += 1) {
    const clean = await run(1000 + i, repeat, false);
    cleanDirs.push(clean.dir);
    const current = { stats: clean.stats, groups: await groupsOf(clean.files.results) };
    const paired = compareWithBaseline(perQuestion, current, { maxDrop: MAX_DROP, confidence: CONFIDENCE });
    if (regressed(paired)) tally.falseAlarms += 1;
    if (regressed(compareWithBaseline(means, current, { maxDrop: MAX_DROP, confidence: CONFIDENCE })))
      tally.meanFalseAlarms += 1;
    for (const row of paired.metrics) {
      if (!row.interval) continue;
      halfWidths.set(row.metric, [
        ...(halfWidths.get(row.metric) ?? []),
        (row.interval[1] - row.interval[0]) / 2,
      ]);
    }
    // The spread of the per-question differences, for the questions a gate needs.
    const before = perQuestion.kind === 'questions' ? perQuestion.groups[0] : undefined;
    const now = current.groups[0];
    if (before && now) {
      for (const metric of ['rouge_l_f1', 'token_overlap_f1', 'rouge_l_recall', 'bleu_score']) {
        const diffs = [...now.questions].flatMap(([question, scores]) => {
          const was = before.questions.get(question)?.[metric];
          const is = scores[metric];
          return was === undefined || is === undefined ? [] : [is - was];
        });
        differenceSds.set(metric, [...(differenceSds.get(metric) ?? []), sd(diffs)]);
      }
    }
    const drop = await run(2000 + i, repeat, true);
    cleanDirs.push(drop.dir);
    const dropped = { stats: drop.stats, groups: await groupsOf(drop.files.results) };
    const pairedDrop = compareWithBaseline(perQuestion, dropped, {
      maxDrop: MAX_DROP,
      confidence: CONFIDENCE,
    });
    const recall = pairedDrop.metrics.find((row) => row.metric === 'context_recall');
    if (recall) drops.push(-recall.difference);
    if (regressed(pairedDrop, 'context_recall')) tally.caught += 1;
    if (regressed(pairedDrop)) tally.caughtAny += 1;
    if (
      regressed(
        compareWithBaseline(means, dropped, { maxDrop: MAX_DROP, confidence: CONFIDENCE }),
        'context_recall',
      )
    )
      tally.meanCaught += 1;
  }
  for (const dir of cleanDirs) rmSync(dir, { recursive: true, force: true });
  const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`\n## --repeat ${repeat}`);
  console.log(
    `per question: false alarms ${tally.falseAlarms}/${runs}; planted drop caught (context_recall) ${tally.caught}/${runs} (any metric ${tally.caughtAny}/${runs})`,
  );
  console.log(
    `mean against mean: false alarms ${tally.meanFalseAlarms}/${runs}; planted drop caught ${tally.meanCaught}/${runs}`,
  );
  console.log(
    `planted drop of context_recall: mean ${mean(drops).toFixed(3)}, from ${Math.min(...drops).toFixed(3)} to ${Math.max(...drops).toFixed(3)}`,
  );
  for (const [metric, widths] of halfWidths) {
    if (mean(widths) === 0) continue;
    const sds = differenceSds.get(metric);
    console.log(
      `${metric}: interval half-width ${mean(widths).toFixed(3)} (mean of ${widths.length})${sds ? `; sd of the per-question differences ${mean(sds).toFixed(3)}` : ''}`,
    );
  }
}
