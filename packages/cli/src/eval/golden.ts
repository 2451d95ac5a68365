import { UsageError } from '../exit-codes.js';
import { idOf, readRecords, recordFormatOf } from '../questions/records.js';
import { ListLiteralError, parsePythonList } from './python-list.js';

/**
 * A golden set's rows, read as a stream from the vendor's files as they are: the FinanceBench form
 * (`query_id,question,gt_answer,gt_context,source`, `gt_context` a Python list literal of passages), the
 * LegalBench form (`question,gt_answer,source`, `gt_answer` the passage list, which is also the
 * context), or JSONL with the same fields (lists as JSON arrays or as the same literals).
 */
export interface GoldenRow {
  /** `query_id`, `id`, or one made from the line and the question. */
  id: string;
  question: string;
  /** The answer text the answer is scored against (LegalBench: its passages, one per line). */
  gtAnswer: string;
  /** `gt_answer` as the file wrote it, for the results' `gt_answer` column. */
  gtAnswerRaw: string;
  gtContext: string[];
  /**
   * The ground-truth context as the vendor's harness passes it: the `gt_context` cell as read (the
   * list literal as text), or in the LegalBench form the `gt_answer` cell.
   */
  gtContextRaw: string;
  source: string;
  /** 1-based line where the row starts. */
  line: number;
}

/** A row the golden file cannot give: its file, line and why. */
export class GoldenFileError extends UsageError {
  override name = 'GoldenFileError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

/** How much of a golden file to read, and what to do with a malformed row. */
export interface ReadGoldenOptions {
  /** Stop after this many rows. */
  limit?: number | undefined;
  /** Called for each malformed row, which is skipped; without it a malformed row throws GoldenFileError. */
  onMalformed?: ((error: GoldenFileError) => void) | undefined;
}

function passages(value: unknown, field: string): string[] {
  if (Array.isArray(value)) {
    if (!value.every((item) => typeof item === 'string')) throw new Error(`${field} must hold strings only`);
    return value;
  }
  if (typeof value !== 'string') throw new Error(`${field} must be a list of passages`);
  if (!value.trimStart().startsWith('[')) return value.trim() === '' ? [] : [value];
  try {
    return parsePythonList(value);
  } catch (error) {
    if (error instanceof ListLiteralError)
      throw new Error(`${field} is not a list of strings: ${error.message}`);
    throw error;
  }
}

function rowOf(record: Record<string, unknown>, line: number): GoldenRow {
  const question = record.question;
  if (typeof question !== 'string' || question.trim() === '') throw new Error('no question');
  const answer = record.gt_answer;
  // A gt_context column (even empty) says the FinanceBench form; only its absence the LegalBench one.
  const hasContext = record.gt_context !== undefined && record.gt_context !== null;
  if (hasContext && record.gt_context === '') throw new Error('gt_context is empty');
  let gtAnswer: string;
  let gtAnswerRaw: string;
  let gtContext: string[];
  let gtContextRaw: string;
  if (hasContext) {
    gtContext = passages(record.gt_context, 'gt_context');
    gtContextRaw =
      typeof record.gt_context === 'string' ? record.gt_context : JSON.stringify(record.gt_context);
    gtAnswerRaw = typeof answer === 'string' ? answer : answer === undefined ? '' : JSON.stringify(answer);
    gtAnswer = gtAnswerRaw;
  } else {
    // The LegalBench form: the answer is the passages that answer it.
    if (answer === undefined || answer === '') throw new Error('neither gt_context nor gt_answer');
    gtContext = passages(answer, 'gt_answer');
    gtAnswerRaw = typeof answer === 'string' ? answer : JSON.stringify(answer);
    gtAnswer = gtContext.join('\n');
    gtContextRaw = gtAnswerRaw;
  }
  const id = idOf(record.query_id ?? record.id, line, question);
  const source = typeof record.source === 'string' && record.source !== '' ? record.source : 'golden';
  return { id, question, gtAnswer, gtAnswerRaw, gtContext, gtContextRaw, source, line };
}

/** The golden rows of a `.csv`, `.jsonl` or `.ndjson` file; the file is never held whole. */
export async function* readGolden(file: string, options: ReadGoldenOptions = {}): AsyncGenerator<GoldenRow> {
  const format = recordFormatOf(file);
  if (format === undefined) throw new UsageError(`${file}: a golden set is a .csv or .jsonl file.`);
  const records = readRecords(file, format);
  let rows = 0;
  try {
    for await (const { record, line, invalid } of records) {
      if (options.limit !== undefined && rows >= options.limit) return;
      let row: GoldenRow;
      try {
        if (invalid !== undefined) throw new Error(invalid);
        row = rowOf(record, line);
      } catch (error) {
        const malformed = new GoldenFileError(file, line, (error as Error).message);
        if (!options.onMalformed) throw malformed;
        options.onMalformed(malformed);
        continue;
      }
      rows += 1;
      yield row;
    }
  } catch (error) {
    if (error instanceof GoldenFileError) throw error;
    // A CSV the parser gives up on (an unclosed quote): its own message names the line.
    const code = (error as { code?: string }).code;
    if (code?.startsWith('CSV_')) {
      const line = (error as { lines?: number }).lines ?? 0;
      throw new GoldenFileError(file, line, (error as Error).message);
    }
    if (code === 'ENOENT') throw new UsageError(`No golden file ${file}.`);
    throw error;
  }
}
