import { UsageError } from '../exit-codes.js';
import { idOf, readRecords, recordFormatOf } from '../questions/records.js';

/** One question of a batch: its id (given, or made from its line and text) and its text. */
export interface Question {
  id: string;
  text: string;
  /** 1-based line (or CSV record) of the input it came from. */
  line: number;
}

const textFields = ['question', 'text', 'query', 'questionText'] as const;

function fromRecord(record: Record<string, unknown>, line: number, file: string): Question {
  const field = textFields.find((name) => typeof record[name] === 'string' && record[name] !== '');
  if (!field) {
    throw new UsageError(`${file}:${line} has no question: give one of the fields ${textFields.join(', ')}.`);
  }
  const text = String(record[field]);
  return { id: idOf(record.id, line, text), text, line };
}

/**
 * The questions of a JSONL file (`{"id"?, "question"}` per line; `text`, `query` or `questionText` also
 * read), a CSV file with a header row (the same column names), or plain text (a question per line),
 * read as a stream: a file of any length holds only the line at hand in memory. Blank lines are skipped.
 */
export async function* readQuestions(file: string): AsyncGenerator<Question> {
  const records = readRecords(file, recordFormatOf(file) ?? 'lines', { trim: true });
  try {
    for await (const { line, record, invalid } of records) {
      if (invalid !== undefined) throw new UsageError(`${file}:${line}: ${invalid}.`);
      yield fromRecord(record, line, file);
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') throw new UsageError(`No question file ${file}.`);
    throw error;
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
