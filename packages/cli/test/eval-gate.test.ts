import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { degradedAnswers } from './support/degraded-answers.js';
import { cliEnv } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

// The gate as a pull request meets it: a baseline file from an earlier run, this run's exit code and
// the words on stderr, and the files a reviewer opens (summary.md, report.html).

const golden = fileURLToPath(new URL('./fixtures/eval/support-golden.csv', import.meta.url));
const supportKb = seed.systems.supportKb;
const productDocs = seed.systems.productDocs;
const freshDir = () => mkdtempSync(join(tmpdir(), 'dataworkz-gate-'));

describe('qna eval --baseline as a gate', () => {
  let emu: Emulator;
  let env: Record<string, string>;
  /** A clean run of both systems: its results.csv and stats.csv are the baselines below. */
  let baselineDir: string;
  const evalArgs = (out: string, ...systems: string[]) => [
    'qna',
    'eval',
    golden,
    ...systems.flatMap((system) => ['--system', system]),
    '--out',
    out,
  ];

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, embed: false });
    env = cliEnv(emu);
    baselineDir = freshDir();
    const first = await runInProcess(evalArgs(baselineDir, supportKb.name, productDocs.name), env);
    expect(first.code).toBe(0);
  });
  afterAll(async () => {
    await emu.close();
  });

  it('passes a clean run against a per-question baseline, with the comparison in every file', async () => {
    const out = freshDir();
    const run = await runInProcess(
      [...evalArgs(out, supportKb.name, productDocs.name), '--baseline', join(baselineDir, 'results.csv')],
      env,
    );
    expect(run.stderr).toContain(
      'question by question, a drop larger than 0.05 whose 95 % interval lies below zero',
    );
    expect(run.stderr).toMatch(
      /^experiment +source +metric +baseline +now +difference +95 % interval +verdict +dropped most$/m,
    );
    expect(run.stderr).toMatch(
      /Customer Support Knowledge Base +support +context_recall +1\.000 +1\.000 +0\.000 +\[0\.000, 0\.000\] +ok/,
    );
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('No regression.');
    expect(run.code).toBe(0);
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toContain('**No regression**.');
    expect(summary).toContain(
      '| experiment | source | metric | baseline | now | difference | 95 % interval | verdict | dropped most |',
    );
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<h2>Compared with the baseline</h2>');
  });

  it('fails on a planted drop (exit 7), naming the interval and the questions that dropped most, regressions first', async () => {
    emu.faults.add(degradedAnswers(6));
    const out = freshDir();
    const run = await runInProcess(
      [
        '--json',
        ...evalArgs(out, supportKb.name),
        '--baseline',
        join(baselineDir, 'results.csv'),
        '--max-drop',
        '0.05',
      ],
      env,
    );
    expect(run.code).toBe(7);
    expect(run.stderr).toContain(
      `Regression: context_recall of ${supportKb.name} (support) is 0.0000, baseline 1.0000: a drop of 1.0000, 95 % interval [-1.0000, -1.0000] over 6 questions.`,
    );
    // The baseline's other experiment is named: this run did not ask it.
    expect(run.stderr).toContain(`In the baseline but not in this run: ${productDocs.name} (support).`);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^Regressed: \d+ metrics of 1 experiment fell below the baseline\.$/,
    );

    const json = JSON.parse(run.stdout);
    expect(json.comparison.kind).toBe('questions');
    expect(json.comparison.confidence).toBe(0.95);
    expect(json.comparison.notInRun).toEqual([{ source: 'support', experiment_name: productDocs.name }]);
    const recall = json.comparison.metrics.find((row: { metric: string }) => row.metric === 'context_recall');
    expect(recall).toMatchObject({
      verdict: 'regressed',
      baseline: 1,
      current: 0,
      difference: -1,
      interval: [-1, -1],
      questions: 6,
    });
    expect(recall.dropped).toHaveLength(3);
    expect(recall.dropped[0]).toMatchObject({ baseline: 1, current: 0 });
    // Regressions first, in the JSON as in the files.
    const verdicts: string[] = json.comparison.metrics.map((row: { verdict: string }) => row.verdict);
    const rank = { regressed: 0, noise: 1, ok: 2 } as Record<string, number>;
    expect(verdicts.map((verdict) => rank[verdict])).toEqual(verdicts.map((verdict) => rank[verdict]).sort());
    expect(verdicts[0]).toBe('regressed');
    expect(json.regressions.length).toBe(verdicts.filter((verdict) => verdict === 'regressed').length);
    expect(json.files.summary).toBe(join(out, 'summary.md'));

    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toMatch(/\*\*Regressed\*\*: \d+ metrics of 1 experiment fell below the baseline\./);
    expect(summary).toMatch(
      /\| Customer Support Knowledge Base \| support \| `context_recall` \| 1\.000 \| 0\.000 \| -1\.000 \| \[-1\.000, -1\.000\] \| \*\*regressed\*\* \| "/,
    );
    // What was folded comes after what failed.
    expect(summary.indexOf('**regressed**')).toBeLessThan(summary.indexOf('<details>'));
    const report = readFileSync(join(out, 'report.html'), 'utf8');
    expect(report.indexOf('Compared with the baseline')).toBeLessThan(report.indexOf('<h2>Experiments</h2>'));
    expect(report).toContain(
      '<tr class="verdict-regressed"><td>Customer Support Knowledge Base</td><td>support</td><td>context_recall</td><td>1.000</td><td>0.000</td><td>-1.000</td><td>[-1.000, -1.000]</td><td>regressed</td>',
    );
  });

  it('says so (exit 8) when no experiment has a baseline row: a renamed system', async () => {
    const renamed = join(freshDir(), 'stats.csv');
    writeFileSync(
      renamed,
      readFileSync(join(baselineDir, 'stats.csv'), 'utf8').replaceAll(
        supportKb.name,
        `${supportKb.name} (old name)`,
      ),
    );
    const run = await runInProcess([...evalArgs(freshDir(), supportKb.name), '--baseline', renamed], env);
    expect(run.code).toBe(8);
    expect(run.stderr).toContain(
      `Nothing was judged: no experiment of this run has a row in the baseline ${renamed}.`,
    );
    expect(run.stderr).toContain(`Not judged, not in the baseline: ${supportKb.name} (support).`);
    expect(run.stderr).toContain(
      `In the baseline but not in this run: ${supportKb.name} (old name) (support), ${productDocs.name} (support).`,
    );
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
      'No comparison: no experiment of this run has a row in the baseline.',
    );
  });

  it('judges what matches and names what does not: a baseline with a missing and an extra experiment', async () => {
    const partial = join(freshDir(), 'results.csv');
    copyFileSync(join(baselineDir, 'results.csv'), partial);
    const rows = parse(readFileSync(partial, 'utf8'), { columns: true }) as Record<string, string>[];
    // The product documentation's rows renamed: this run's experiment of that name has none.
    writeFileSync(
      partial,
      readFileSync(partial, 'utf8').replaceAll(`,${productDocs.name},`, ',Retired System,'),
    );
    expect(rows.filter((row) => row.experiment_name === productDocs.name)).toHaveLength(6);
    const run = await runInProcess(
      [...evalArgs(freshDir(), supportKb.name, productDocs.name), '--baseline', partial],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `Not judged, not in the baseline (or no question in common): ${productDocs.name} (support).`,
    );
    expect(run.stderr).toContain('In the baseline but not in this run: Retired System (support).');
    expect(run.stderr).toMatch(/Customer Support Knowledge Base +support +context_recall/);
  });

  it('--repeat asks each question n times, keeps each answer, and scores the question by their mean', async () => {
    const out = freshDir();
    const run = await runInProcess([...evalArgs(out, supportKb.name), '--repeat', '3', '--limit', '2'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('6 answered, 0 failed');
    const results = parse(readFileSync(join(out, 'results.csv'), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    expect(results.map((row) => row.repetition).sort()).toEqual(['1', '1', '2', '2', '3', '3']);
    // The vendor's columns, with `repetition` after `experiment_name`, before the scores.
    expect(readFileSync(join(out, 'results.csv'), 'utf8').split('\n')[0]).toMatch(
      /^question,gt_answer,system_answer,source,experiment_name,repetition,context_precision,/,
    );
    // Two questions, however many answers each.
    expect(run.stdout.split('\n')[1]).toMatch(new RegExp(`^support\\t${supportKb.name}\\t2\\t`));
    // A rerun with a fourth repetition asks only the fourth.
    const more = await runInProcess([...evalArgs(out, supportKb.name), '--repeat', '4', '--limit', '2'], env);
    expect(more.stderr).toContain('2 answered, 0 failed, 6 skipped');
    // A repeated run's results are a baseline like any other: the repetitions are averaged.
    const against = await runInProcess(
      [...evalArgs(freshDir(), supportKb.name), '--limit', '2', '--baseline', join(out, 'results.csv')],
      env,
    );
    expect(against.code).toBe(0);
    expect(against.stderr).toMatch(/context_recall +1\.000 +1\.000 +0\.000 +\[0\.000, 0\.000\] +ok/);
  });

  it('averages golden rows as the vendor does: two rows that ask the same question count twice in the stats', async () => {
    const dir = freshDir();
    const twice = join(dir, 'golden.csv');
    const [header, first] = readFileSync(golden, 'utf8').split('\n');
    writeFileSync(twice, `${header}\n${first}\n${first?.replace('support-01', 'support-01-again')}\n`);
    const run = await runInProcess(
      [
        '--json',
        'qna',
        'eval',
        twice,
        '--system',
        supportKb.name,
        '--out',
        join(dir, 'out'),
        '--repeat',
        '2',
      ],
      env,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).stats[0].count).toBe(2);
  });

  it('refuses a confidence outside (0, 1) and a baseline that is no stats or results CSV', async () => {
    const bad = await runInProcess([...evalArgs(freshDir(), supportKb.name), '--confidence', '1'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Not a number above 0 and below 1.');
    const notCsv = join(freshDir(), 'baseline.csv');
    writeFileSync(notCsv, 'name,value\nx,1\n');
    const wrong = await runInProcess([...evalArgs(freshDir(), supportKb.name), '--baseline', notCsv], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`${notCsv}:2: a baseline needs the column experiment_name.`);
  });
});
