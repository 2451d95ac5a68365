import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';

/**
 * A batch's output: one JSON line per question, the latest for each. A run appends as questions finish
 * (a line on disk is never lost), then, if it wrote a question the file already held (a failed one
 * asked again), compacts the file: a copy with only each question's last line replaces it by a rename,
 * so a crash at any point leaves either the old file or the new one.
 */

/** What a batch reads in its output before it starts. */
export interface OutputState {
  /** Questions whose last line is `"status":"ok"`: a rerun skips them. */
  answered: Set<string>;
  /** Every question with a line: one written again makes the file need compacting. */
  present: Set<string>;
  /** A question with several lines, or a line cut short (by a kill): compact before appending. */
  untidy: boolean;
}

type Line = { id: string | undefined; status: unknown } | undefined;

/** A line's question id and status; undefined for a line that is not a JSON object (cut short). */
function parse(line: string): Line {
  try {
    const record = JSON.parse(line) as { id?: unknown; status?: unknown } | null;
    if (typeof record !== 'object' || record === null) return undefined;
    return { id: typeof record.id === 'string' ? record.id : undefined, status: record.status };
  } catch {
    return undefined;
  }
}

async function* linesOf(file: string): AsyncGenerator<string> {
  const input = createReadStream(file);
  yield* createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
}

/** Whether the file's last byte is a line end (an empty file counts as ended). */
async function endsWithNewline(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

export async function readOutput(file: string): Promise<OutputState> {
  const state: OutputState = { answered: new Set(), present: new Set(), untidy: false };
  if (!existsSync(file)) return state;
  for await (const text of linesOf(file)) {
    if (text.trim() === '') continue;
    const line = parse(text);
    if (line === undefined) {
      state.untidy = true;
      continue;
    }
    if (line.id === undefined) continue;
    if (state.present.has(line.id)) state.untidy = true;
    state.present.add(line.id);
    // The last line of a question says whether it is answered.
    if (line.status === 'ok') state.answered.add(line.id);
    else state.answered.delete(line.id);
  }
  if (!(await endsWithNewline(file))) state.untidy = true;
  return state;
}

/** Forces a file (or a folder's entries) to disk. */
async function sync(path: string): Promise<void> {
  const handle = await open(path, 'r');
  await handle.sync().finally(() => handle.close());
}

/**
 * Rewrites the output with one line per question, its last, where that last line stood; lines cut
 * short are dropped (their questions are asked again). Memory holds the ids, never the lines.
 */
export async function compactOutput(file: string): Promise<void> {
  if (!existsSync(file)) return;
  // First pass: the number of each question's last line.
  const last = new Map<string, number>();
  let number = 0;
  for await (const text of linesOf(file)) {
    number += 1;
    const id = parse(text)?.id;
    if (id !== undefined) last.set(id, number);
  }
  const temporary = `${file}.compacting`;
  const copy = createWriteStream(temporary, { flags: 'w' });
  number = 0;
  for await (const text of linesOf(file)) {
    number += 1;
    if (text.trim() === '') continue;
    const line = parse(text);
    if (line === undefined) continue;
    if (line.id !== undefined && last.get(line.id) !== number) continue;
    if (!copy.write(`${text}\n`)) await once(copy, 'drain');
  }
  copy.end();
  await finished(copy);
  await sync(temporary);
  await rename(temporary, file);
  // The rename itself on disk: the folder's entry.
  await sync(dirname(file)).catch(() => undefined);
}
