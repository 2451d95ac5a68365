import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import { UsageError } from '../exit-codes.js';

/** One question of a batch: its id (given, or made from its line and text) and its text. */
export interface Question {
  id: string;
  text: string;
  /** 1-based line (or CSV record) of the input it came from. */
  line: number;
}

type Format = 'jsonl' | 'csv' | 'lines';

const textFields = ['question', 'text', 'query', 'questionText'] as const;

function formatOf(file: string): Format {
  const extension = extname(file).toLowerCase();
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  if (extension === '.csv') return 'csv';
  return 'lines';
}

/** An id for a question that has none: stable while its line and text stay the same. */
function madeId(line: number, text: string): string {
  return `line-${line}-${createHash('sha1').update(text).digest('hex').slice(0, 8)}`;
}

function fromRecord(record: Record<string, unknown>, line: number, file: string): Question {
  const field = textFields.find((name) => typeof record[name] === 'string' && record[name] !== '');
  if (!field) {
    throw new UsageError(`${file}:${line} has no question: give one of the fields ${textFields.join(', ')}.`);
  }
  const text = String(record[field]);
  const given = record.id;
  const id =
    typeof given === 'string' && given !== ''
      ? given
      : typeof given === 'number'
        ? String(given)
        : madeId(line, text);
  return { id, text, line };
}

/**
 * The questions of a JSONL file (`{"id"?, "question"}` per line; `text`, `query` or `questionText` also
 * read), a CSV file with a header row (the same column names), or plain text (a question per line),
 * read as a stream: a file of any length holds only the line at hand in memory. Blank lines are skipped.
 */
export async function* readQuestions(file: string): AsyncGenerator<Question> {
  const format = formatOf(file);
  if (format === 'csv') {
    const records = createReadStream(file).pipe(
      parse({ columns: true, skip_empty_lines: true, trim: true, bom: true }),
    );
    let line = 1; // the header
    for await (const record of records as AsyncIterable<Record<string, unknown>>) {
      line += 1;
      yield fromRecord(record, line, file);
    }
    return;
  }
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    const text = raw.trim();
    if (text === '') continue;
    if (format === 'lines') {
      yield { id: madeId(line, text), text, line };
      continue;
    }
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      throw new UsageError(`${file}:${line} is not a JSON object.`);
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      throw new UsageError(`${file}:${line} is not a JSON object.`);
    }
    yield fromRecord(record as Record<string, unknown>, line, file);
  }
}

/** How many questions the input holds, and how many are not among `skip` (a first pass, for the progress bar). */
export async function countQuestions(
  file: string,
  skip: ReadonlySet<string>,
  read: (file: string) => AsyncIterable<Question> = readQuestions,
): Promise<{ questions: number; toAsk: number }> {
  let questions = 0;
  let toAsk = 0;
  for await (const question of read(file)) {
    questions += 1;
    if (!skip.has(question.id)) toAsk += 1;
  }
  return { questions, toAsk };
}
