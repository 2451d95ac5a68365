import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';

/**
 * One record of a question file and the 1-based line it starts on: its fields, or why it is not a
 * record (a JSONL line that is no JSON object, a CSV row with another number of fields than the
 * header), so each reader decides whether that stops the file or skips the row.
 */
export type QuestionRecord =
  | { line: number; record: Record<string, unknown>; invalid?: undefined }
  | { line: number; invalid: string; record?: undefined };

/** How a question file is read: CSV with a header row, JSON objects one a line, or a question a line. */
export type RecordFormat = 'csv' | 'jsonl' | 'lines';

/** The format a file's extension says: `.csv`, `.jsonl` or `.ndjson`; undefined for any other. */
export function recordFormatOf(file: string): RecordFormat | undefined {
  const extension = extname(file).toLowerCase();
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  if (extension === '.csv') return 'csv';
  return undefined;
}

/** An id for a record that has none: stable while its line and text stay the same. */
function madeId(line: number, text: string): string {
  return `line-${line}-${createHash('sha1').update(text).digest('hex').slice(0, 8)}`;
}

/** The id a record gives (a non-empty string, or a number), else one made from its line and text. */
export function idOf(given: unknown, line: number, text: string): string {
  if (typeof given === 'string' && given !== '') return given;
  if (typeof given === 'number') return String(given);
  return madeId(line, text);
}

/** What reading CSV changes: `trim` strips the blanks around each field. */
export interface ReadRecordsOptions {
  trim?: boolean | undefined;
}

/**
 * The records of a question file, read as a stream (a file of any length holds only the record at
 * hand in memory); blank lines are skipped. A read error (a missing file) rejects the iteration, and
 * a CSV record that spans lines is numbered by the line it starts on. A plain-text line is the record
 * `{ question }`.
 */
export function readRecords(
  file: string,
  format: RecordFormat,
  options: ReadRecordsOptions = {},
): AsyncGenerator<QuestionRecord> {
  return format === 'csv' ? csvRecords(file, options) : lineRecords(file, format);
}

async function* csvRecords(file: string, options: ReadRecordsOptions): AsyncGenerator<QuestionRecord> {
  const input = createReadStream(file);
  const parser = parse({
    columns: true,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    trim: options.trim ?? false,
    info: true,
  });
  // A pipe does not pass on a read error (a missing file): the parser is failed with it.
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  // The header ends on line 1 unless it spans more; each record starts after the previous one ends.
  let next = 2;
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, unknown>;
    info: { lines: number; invalid_field_length: number };
  }>) {
    const line = next;
    next = info.lines + 1;
    yield info.invalid_field_length > 0
      ? { line, invalid: 'a different number of fields from the header' }
      : { line, record };
  }
}

async function* lineRecords(file: string, format: 'jsonl' | 'lines'): AsyncGenerator<QuestionRecord> {
  const input = createReadStream(file);
  // Opened before reading, so a missing file rejects here rather than as an unhandled stream error.
  await once(input, 'open');
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    const text = raw.trim();
    if (text === '') continue;
    if (format === 'lines') {
      yield { line, record: { question: text } };
      continue;
    }
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      record = undefined;
    }
    yield typeof record === 'object' && record !== null && !Array.isArray(record)
      ? { line, record: record as Record<string, unknown> }
      : { line, invalid: 'not a JSON object' };
  }
}
