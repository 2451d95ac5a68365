import { UsageError } from '../exit-codes.js';
import { readRecords } from '../questions/records.js';
import { type QuestionGroup, QuestionScores } from './question-scores.js';
import { RESULT_TEXT_COLUMNS } from './results-csv.js';
import { type StatsRow, statsRowsOf, withoutFormulaQuotes } from './stats.js';

/**
 * What a run is compared with: a `stats.csv` (a mean per metric, source and experiment: compared mean
 * against mean) or a `results.csv` (a score per question: compared question by question).
 */
export type Baseline =
  | { kind: 'means'; file: string; stats: StatsRow[] }
  | { kind: 'questions'; file: string; stats: StatsRow[]; groups: QuestionGroup[] };

/** Columns of a results file that are not scores. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(RESULT_TEXT_COLUMNS);

/**
 * Reads a baseline, telling the two files apart by their columns: a `question` column makes it a
 * results file (ours, or the vendor's harness's), repetitions of a question averaged as a run's are.
 */
export async function readBaseline(file: string): Promise<Baseline> {
  const records: Record<string, string>[] = [];
  let questions: QuestionScores | undefined;
  try {
    for await (const { record, line, invalid } of readRecords(file, 'csv')) {
      if (invalid !== undefined) throw new UsageError(`${file}:${line}: ${invalid}.`);
      const cells = withoutFormulaQuotes(record as Record<string, string>);
      if (cells.experiment_name === undefined)
        throw new UsageError(`${file}:${line}: a baseline needs the column experiment_name.`);
      if (cells.question === undefined) {
        records.push(cells);
        continue;
      }
      questions ??= new QuestionScores();
      const scores: Record<string, number> = {};
      for (const [column, value] of Object.entries(cells)) {
        if (TEXT_COLUMNS.has(column) || value === '') continue;
        const number = Number(value);
        if (Number.isFinite(number)) scores[column] = number;
      }
      questions.add(cells.source ?? '', cells.experiment_name, cells.question, scores);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as { code?: string }).code === 'ENOENT') throw new UsageError(`No baseline file ${file}.`);
    throw new UsageError(`${file} is not a stats or results CSV: ${(error as Error).message}`);
  }
  if (questions)
    return { kind: 'questions', file, stats: questions.rows(), groups: questions.groupsByQuestion() };
  return { kind: 'means', file, stats: statsRowsOf(file, records) };
}
