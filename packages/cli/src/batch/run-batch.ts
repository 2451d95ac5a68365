import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { Output } from '../output.js';
import type { AdaptiveLimit } from './adaptive-limit.js';
import { compactOutput, readOutput } from './output-file.js';
import { batchProgress } from './progress.js';
import { countQuestions, type Question, readQuestions } from './questions.js';

/** What a question's work is given: the signal that stops it, and what to tell of each attempt it repeats. */
interface BatchCall {
  signal: AbortSignal;
  /** Called for each attempt beyond the first (a client retry, a resumed stream): `count` of them. */
  retried(count?: number): void;
}

/** What one question yields, merged into its output line (answer, contexts, results, state...). */
export type BatchWork<Q extends Question = Question> = (
  question: Q,
  call: BatchCall,
) => Promise<Record<string, unknown>>;

/** Where a batch tells of its progress and its end: the CLI's output, or a library caller's log. */
export type BatchOutput = Pick<Output, 'error' | 'interactive' | 'json'>;

/** Reads the items of a batch's input, as a stream (questions, or an evaluation's question-experiment pairs). */
export type BatchReader<Q extends Question> = (file: string) => AsyncIterable<Q>;

export interface BatchOptions {
  /** The questions: JSONL, CSV or plain lines. */
  batch: string;
  /** The output JSONL: one line per question, the latest; its answered questions are skipped. */
  out?: string;
  /** Requests in flight at most. */
  concurrency?: number;
}

/** Times a question goes back in the queue because the service rate-limited it, before it is failed. */
const maxRateLimitedTries = 20;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { status, requestId, failureReason } = error as Error & {
    status?: number;
    requestId?: string;
    failureReason?: string;
  };
  return {
    name: error.name,
    message: error.message,
    ...(status !== undefined ? { status } : {}),
    ...(failureReason !== undefined ? { failureReason } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
  };
}

/**
 * Asks every question of the input, `concurrency` at a time (fewer while the service pushes back), and
 * writes one JSON line per question to the output: the question, its id, status `ok` or `failed` (with
 * the error), what `work` returned, the time it took and the attempts (every request the client made
 * for it, retries included). A failed question is recorded and the batch goes on; questions already
 * `ok` in the output are skipped, so a stopped batch resumes, and a failed one asked again replaces its
 * line. Ctrl-C stops it: requests in flight are aborted (and asked again next time), the output is
 * flushed.
 */
export async function runBatch<Q extends Question = Question>(
  out: BatchOutput,
  options: BatchOptions,
  limit: AdaptiveLimit,
  work: BatchWork<Q>,
  read: BatchReader<Q> = readQuestions as BatchReader<Q>,
): Promise<number> {
  if (!options.out) throw new UsageError('--batch needs --out <file>: where each answer is written.');
  const output = options.out;
  const { answered, present, untidy } = await readOutput(output);
  // Appends start on a whole line, after one line per question.
  if (untidy) await compactOutput(output);
  // A first pass counts what is left to ask, for the progress bar.
  const { questions, toAsk } = await countQuestions(options.batch, answered, read);
  if (toAsk === 0) {
    out.error(
      questions === 0
        ? `Nothing to ask: ${options.batch} holds no question.`
        : `Nothing to ask: all ${questions} question${questions === 1 ? ' is' : 's are'} answered in ${output}.`,
    );
    return ExitCode.ok;
  }
  // Ctrl-C aborts the batch and, through their own controllers, the questions in flight: one listener
  // each on a shared signal would pile up over a long batch.
  const controller = new AbortController();
  const inFlight = new Set<AbortController>();
  const onSigint = () => {
    controller.abort();
    for (const question of inFlight) question.abort();
  };
  process.on('SIGINT', onSigint);
  const stream = createWriteStream(output, { flags: 'a' });
  // Whole lines, in the order questions finish; the dispatch loop waits for the file when it lags.
  // Set when a question the file already held is written again: its older line goes at the end.
  let replaced = false;
  const write = (record: Record<string, unknown> & { id: string }) => {
    if (present.has(record.id)) replaced = true;
    stream.write(`${JSON.stringify(record)}\n`);
  };
  let skipped = 0;
  let succeeded = 0;
  let failed = 0;
  const started = performance.now();
  const pending = new Set<Promise<void>>();
  const progress = await batchProgress(out, toAsk);

  /** Asks one question until it is answered or fails (a rate-limited one waits and goes again). */
  async function attempt(question: Q, signal: AbortSignal): Promise<void> {
    const began = performance.now();
    // Every request made for the question: the client's retries and the batch's own rounds.
    let attempts = 0;
    const retried = (count = 1) => {
      attempts += count;
    };
    for (let round = 1; ; round++) {
      attempts += 1;
      const timing = () => ({ ms: Math.round(performance.now() - began), attempts });
      try {
        const fields = await work(question, { signal, retried });
        limit.succeeded();
        succeeded += 1;
        write({ id: question.id, question: question.text, status: 'ok', ...fields, ...timing() });
        progress.done(false);
        return;
      } catch (error) {
        if (controller.signal.aborted) return; // asked again on the next run
        if (error instanceof Error && error.name === 'RateLimitError' && round < maxRateLimitedTries) {
          await sleep(Math.max(limit.pauseMs(), 100), signal);
          continue;
        }
        failed += 1;
        write({
          id: question.id,
          question: question.text,
          status: 'failed',
          error: errorFields(error),
          ...timing(),
        });
        progress.done(true);
        return;
      }
    }
  }

  async function ask(question: Q): Promise<void> {
    const own = new AbortController();
    inFlight.add(own);
    try {
      await attempt(question, own.signal);
    } finally {
      inFlight.delete(own);
    }
  }

  try {
    for await (const question of read(options.batch)) {
      if (controller.signal.aborted) break;
      if (answered.has(question.id)) {
        skipped += 1;
        continue;
      }
      while (pending.size >= limit.value) await Promise.race(pending);
      if (stream.writableNeedDrain) await once(stream, 'drain');
      const pause = limit.pauseMs();
      if (pause > 0) await sleep(pause, controller.signal);
      if (controller.signal.aborted) break;
      const task: Promise<void> = ask(question).finally(() => pending.delete(task));
      pending.add(task);
    }
    await Promise.all(pending);
  } finally {
    process.off('SIGINT', onSigint);
    progress.stop();
    stream.end();
    await once(stream, 'close');
    // On disk before the CLI reports: a crash after this loses nothing written.
    const handle = await open(output, 'r');
    await handle.sync().finally(() => handle.close());
    // A question asked again leaves its latest line only.
    if (replaced) await compactOutput(output);
  }
  const seconds = (performance.now() - started) / 1000;
  const rate = (succeeded + failed) / Math.max(seconds, 0.001);
  out.error(
    `${controller.signal.aborted ? 'Stopped' : 'Done'}: ${succeeded} answered, ${failed} failed, ${skipped} skipped (already in ${output}) in ${seconds.toFixed(1)} s, ${rate.toFixed(1)}/s.`,
  );
  if (controller.signal.aborted) return ExitCode.interrupted;
  return failed > 0 ? ExitCode.failed : ExitCode.ok;
}
