import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Scores } from './metric-names.js';

/** One line of `results.jsonl`: a question asked of one experiment, its answer, chunks and scores. */
export interface ResultLine {
  /** The golden row's id and the experiment: what a rerun skips once it is `ok`. */
  id: string;
  question: string;
  status: 'ok' | 'failed';
  experiment_name?: string;
  source?: string;
  /** Which answer to the question this is, from 1, when each was asked several times (`--repeat`). */
  repetition?: number;
  gt_answer?: string;
  system_answer?: string;
  /** The chunks the LLM was given, and where they were read. */
  chunks?: string[];
  chunks_from?: 'probe' | 'context';
  scores?: Scores;
  error?: { name?: string; message?: string };
  ms?: number;
  attempts?: number;
}

/** The lines of a results JSONL, one at a time; lines cut short (by a kill) are passed over. */
export async function* readResults(file: string): AsyncGenerator<ResultLine> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const text of lines) {
    if (text.trim() === '') continue;
    try {
      const line = JSON.parse(text) as ResultLine;
      if (typeof line === 'object' && line !== null && typeof line.id === 'string') yield line;
    } catch {
      // A line cut short: its question is asked again by the next run.
    }
  }
}
