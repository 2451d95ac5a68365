import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';
import type { MetricName } from './metric-names.js';
import type { ResultLine } from './results-file.js';
import { type StatsRow, statsMetrics } from './stats.js';

/**
 * A text cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, or a tab or carriage return
 * first) gets a leading `'`, OWASP's rule for CSV injection: a system named `=HYPERLINK(…)` shows as
 * text. Numbers are written as numbers, and so is text that is only a number: FinanceBench's
 * `gt_answer` `-0.02` is no formula, and the vendor's harness writes it as it is.
 */
const FORMULA = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/**
 * A score as pandas writes a float (Python's `repr`), so the files read as the vendor's harness's:
 * `1.0` and `0.0` where JavaScript writes `1` and `0`, `1e-05` where it writes `0.00001`.
 */
function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return '';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const [digits = '', exponent = '0'] = value.toExponential().split('e');
  const power = Number(exponent);
  if (power < -4 || power >= 16) {
    return `${digits}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  }
  const text = String(value);
  return text.includes('.') ? text : `${text}.0`;
}

const spreadsheetSafe = {
  string: (value: string) => (FORMULA.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value),
  number: pythonFloat,
};

/** The columns of `results.csv` before the scores (`repetition` only with `--repeat`). */
export const RESULT_TEXT_COLUMNS = [
  'question',
  'gt_answer',
  'system_answer',
  'source',
  'experiment_name',
  'repetition',
] as const;

/**
 * `results.csv` in the vendor's columns, a row per question and experiment, streamed as they come;
 * with `repetitions` a `repetition` column after `experiment_name` says which answer a row is.
 */
export async function writeResultsCsv(
  file: string,
  metrics: readonly MetricName[],
  repetitions: boolean,
  lines: AsyncIterable<ResultLine>,
): Promise<void> {
  const columns = [
    ...RESULT_TEXT_COLUMNS.filter((column) => repetitions || column !== 'repetition'),
    ...metrics,
  ];
  const csv = stringify({ header: true, columns, cast: spreadsheetSafe });
  const out = createWriteStream(file);
  csv.pipe(out);
  for await (const line of lines) {
    const row = {
      question: line.question,
      gt_answer: line.gt_answer ?? '',
      system_answer: line.system_answer ?? '',
      source: line.source ?? '',
      experiment_name: line.experiment_name ?? '',
      ...(repetitions ? { repetition: String(line.repetition ?? 1) } : {}),
      ...line.scores,
    };
    if (!csv.write(row)) await once(csv, 'drain');
  }
  csv.end();
  await finished(out);
}

/** `stats.csv`: the mean of each metric per source and experiment, the metric columns sorted as the vendor's. */
export async function writeStatsCsv(file: string, stats: readonly StatsRow[]): Promise<void> {
  const metrics = statsMetrics(stats);
  const text = stringifySync(
    stats.map((row) => [
      row.source,
      row.experiment_name,
      ...metrics.map((metric) => row.means[metric] ?? ''),
    ]),
    { header: true, columns: ['source', 'experiment_name', ...metrics], cast: spreadsheetSafe },
  );
  await writeFile(file, text);
}
