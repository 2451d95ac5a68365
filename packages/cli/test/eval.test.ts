import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  evaluateQna,
  GoldenFileError,
  type GoldenRow,
  readGolden,
  retrievalScores,
} from '@dataworkz/cli/eval';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { degradedAnswers } from './support/degraded-answers.js';
import { cliEnv } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/eval/${name}`, import.meta.url));
const supportKb = seed.systems.supportKb;
const productDocs = seed.systems.productDocs;
const freshDir = () => mkdtempSync(join(tmpdir(), 'dataworkz-eval-'));

async function rows(
  file: string,
  strict = false,
): Promise<{ rows: GoldenRow[]; skipped: GoldenFileError[] }> {
  const skipped: GoldenFileError[] = [];
  const read: GoldenRow[] = [];
  for await (const row of readGolden(file, strict ? {} : { onMalformed: (error) => skipped.push(error) })) {
    read.push(row);
  }
  return { rows: read, skipped };
}

describe('reading golden files', () => {
  it('reads the FinanceBench form: list literals in both quotes, escaped quotes, a field over two lines', async () => {
    const { rows: read, skipped } = await rows(fixture('financebench-form.csv'));
    expect(read.map((row) => row.id)).toEqual(['fb_01', 'fb_02', 'fb_04']);
    expect(read[0]?.gtContext).toEqual([
      'Table of Contents \n3M Company and Subsidiaries\nPurchases of property, plant and equipment (PP&E)\n(1,577)',
      "Cash flows from investing activities: the company's capital spending",
    ]);
    expect(read[1]?.gtContext).toEqual(['It says "capital-intensive" twice', "and it's quoted here"]);
    expect(read[2]?.gtContext).toEqual(['first line\nsecond line']);
    expect(read[0]?.gtAnswer).toBe('$1577.00');
    // The bad row is named by its line and skipped; the rows after it still come.
    expect(skipped.map((error) => error.line)).toEqual([4]);
    expect(skipped[0]?.message).toMatch(/financebench-form\.csv:4: gt_context is not a list of strings/);
  });

  it('refuses a malformed row when no one takes it', async () => {
    await expect(rows(fixture('financebench-form.csv'), true)).rejects.toThrow(GoldenFileError);
  });

  it('says a golden file is missing, or is not a CSV or JSONL file, with a usage error', async () => {
    await expect(rows(fixture('missing.csv'))).rejects.toThrow(/^No golden file .*missing\.csv\.$/);
    await expect(rows(fixture('missing.jsonl'))).rejects.toThrow(/^No golden file /);
    await expect(rows(fixture('golden.txt'))).rejects.toThrow(/a golden set is a \.csv or \.jsonl file/);
  });

  it('reads the LegalBench form: the answer holds the passages and serves as the context', async () => {
    const { rows: read } = await rows(fixture('legalbench-form.csv'));
    expect(read).toHaveLength(2);
    expect(read[0]?.gtContext).toEqual([
      'Customers may return hardware within 30 days of delivery for a full refund.\n',
      'Gold members may return hardware within 60 days of delivery.',
    ]);
    expect(read[0]?.source).toBe('privacy_qa');
    expect(read[0]?.id).toMatch(/^line-2-/);
  });

  it('reads JSONL in either form and names the lines it skips', async () => {
    const { rows: read, skipped } = await rows(fixture('golden.jsonl'));
    expect(read.map((row) => row.gtContext.length)).toEqual([1, 1]);
    expect(skipped.map((error) => [error.line, error.reason])).toEqual([
      [3, 'not a JSON object'],
      [4, 'no question'],
    ]);
  });
});

describe('evaluateQna against the emulator', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('scores the system that holds the answers above the one that does not', async () => {
    emu = await startEmulator({ port: 0 });
    const client = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey });
    const outDir = freshDir();
    const result = await evaluateQna({
      client,
      golden: fixture('support-golden.csv'),
      systems: [supportKb.name, productDocs.systemId],
      outDir,
      similarity: true,
    });
    const mean = (name: string, metric: string) =>
      result.stats.find((row) => row.experiment_name === name)?.means[metric] ?? Number.NaN;
    expect(result.scored).toBe(12);
    expect(mean(supportKb.name, 'context_recall')).toBeGreaterThan(mean(productDocs.name, 'context_recall'));
    expect(mean(supportKb.name, 'context_recall')).toBe(1);
    // The emulator's sentence encoder is installed here: answers that say the golden answer score closer.
    expect(result.similarity).toBe(true);
    expect(mean(supportKb.name, 'answer_similarity')).toBeGreaterThan(
      mean(productDocs.name, 'answer_similarity'),
    );
    // The chunks came from the probe's MERGE_NEIGHBOURING_CONTEXT node.
    const lines = readFileSync(result.files.resultsJsonl, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.every((line) => line.chunks_from === 'probe' && line.chunks.length > 0)).toBe(true);
    // The vendor's columns: the results in the metrics' order, the stats' metrics sorted.
    const results = readFileSync(result.files.results, 'utf8');
    expect(results.split('\n')[0]).toMatch(
      /^question,gt_answer,system_answer,source,experiment_name,context_precision,context_recall,context_f1,average_precision,reciprocal_rank,ndcg,rouge_l_recall,/,
    );
    expect(readFileSync(result.files.stats, 'utf8').split('\n')[0]).toMatch(
      /^source,experiment_name,answer_similarity,average_precision,bleu_faithfulness,bleu_score,context_f1,context_precision,context_recall,ndcg,/,
    );
    const report = readFileSync(result.files.report, 'utf8');
    expect(report).toContain('<svg');
    expect(report).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });

  it("--as-vendor scores the raw golden cell as the vendor's harness passes it, each form, in its own CSVs", async () => {
    emu = await startEmulator({ port: 0 });
    const client = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey });
    for (const [form, cellOf] of [
      ['financebench-form.csv', (row: GoldenRow) => row.gtContextRaw],
      ['legalbench-form.csv', (row: GoldenRow) => row.gtAnswerRaw],
    ] as const) {
      const outDir = freshDir();
      const golden = fixture(form);
      const options = { client, golden, systems: [supportKb.name], outDir, limit: 2 };
      const vendor = await evaluateQna({ ...options, asVendor: true });
      // The same folder run the default way keeps its own lines: each CSV is of one mode.
      const passages = await evaluateQna(options);
      expect(vendor.scored).toBe(passages.scored);
      // The report is of the last run's mode only: a column per question, not one per mode.
      expect(readFileSync(passages.files.report, 'utf8').match(/<section>/g)).toHaveLength(passages.scored);
      const { rows: golden2 } = await rows(golden);
      const lines = readFileSync(vendor.files.resultsJsonl, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const asVendor = lines.filter((line) => line.id.endsWith('|as-vendor'));
      expect(asVendor).toHaveLength(vendor.scored);
      for (const line of asVendor) {
        const row = golden2.find((candidate) => line.id.startsWith(`${candidate.id}|`)) as GoldenRow;
        // continuous-eval iterates the string it is given: the ground truth is the cell's characters.
        expect(cellOf(row).startsWith('[')).toBe(true);
        const expected = retrievalScores(line.chunks, Array.from(cellOf(row)));
        for (const [metric, value] of Object.entries(expected)) expect(line.scores[metric]).toBe(value);
      }
      // The vendor's results columns, in its order.
      expect(readFileSync(vendor.files.results, 'utf8').split('\n')[0]).toMatch(
        /^question,gt_answer,system_answer,source,experiment_name,context_precision,context_recall,context_f1,average_precision,reciprocal_rank,ndcg,rouge_l_recall,/,
      );
    }
  });
});

describe('dataworkz qna eval', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('fails the baseline gate on a real drop, naming metric, experiment and both values, and passes a rerun', async () => {
    emu = await startEmulator({ port: 0 });
    const env = cliEnv(emu);
    const golden = fixture('support-golden.csv');
    const args = (out: string) => ['qna', 'eval', golden, '--system', supportKb.name, '--out', out];
    const first = freshDir();
    const baseline = await runInProcess(args(first), env);
    expect(baseline.code).toBe(0);
    const baselineFile = join(freshDir(), 'baseline.csv');
    copyFileSync(join(first, 'stats.csv'), baselineFile);

    // The deployment gets worse: every answer of the next run is given the wrong chunk.
    emu.faults.add(degradedAnswers(6));
    const dropped = await runInProcess(
      [...args(freshDir()), '--baseline', baselineFile, '--max-drop', '0.05'],
      env,
    );
    expect(dropped.code).toBe(7);
    expect(dropped.stderr).toContain(
      `Regression: context_recall of ${supportKb.name} (support) is 0.0000, baseline 1.0000: a drop of 1.0000.`,
    );

    const rerun = await runInProcess(
      [...args(freshDir()), '--baseline', baselineFile, '--max-drop', '0.05'],
      env,
    );
    expect(rerun.stderr).not.toContain('Regression');
    expect(rerun.code).toBe(0);
  });

  it('refuses a malformed row with --strict (exit 2) and resumes an interrupted folder', async () => {
    emu = await startEmulator({ port: 0 });
    const env = cliEnv(emu);
    const strict = await runInProcess(
      [
        'qna',
        'eval',
        fixture('financebench-form.csv'),
        '--system',
        supportKb.name,
        '--out',
        freshDir(),
        '--strict',
      ],
      env,
    );
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('financebench-form.csv:4: gt_context is not a list of strings');

    const out = freshDir();
    const evalArgs = ['qna', 'eval', fixture('support-golden.csv'), '--system', supportKb.name, '--out', out];
    expect((await runInProcess([...evalArgs, '--limit', '2'], env)).code).toBe(0);
    const rest = await runInProcess(evalArgs, env);
    expect(rest.code).toBe(0);
    expect(rest.stderr).toContain('4 answered, 0 failed, 2 skipped');
    // Six rows: answers span lines, so the file is read as CSV.
    expect(parse(readFileSync(join(out, 'results.csv'), 'utf8'), { columns: true })).toHaveLength(6);
  });
});
