import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Context } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { AdaptiveLimit } from './adaptive-limit.js';
import { readAnswered } from './answered.js';
import { batchProgress } from './progress.js';
import { countQuestions, type Question, readQuestions } from './questions.js';

/** What one question yields, merged into its output line (answer, contexts, results, state...). */
export type BatchWork = (question: Question, signal: AbortSignal) => Promise<Record<string, unknown>>;

export interface BatchOptions {
  /** The questions: JSONL, CSV or plain lines. */
  batch: string;
  /** The output JSONL, appended to; its answered questions are skipped. */
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
 * appends one JSON line per question to the output: the question, its id, status `ok` or `failed` (with
 * the error), what `work` returned, the time it took and the attempts. A failed question is recorded and
 * the batch goes on; questions already `ok` in the output are skipped, so a stopped batch resumes.
 * Ctrl-C stops it: requests in flight are aborted (and asked again next time), the output is flushed.
 */
export async function runBatch(
  ctx: Context,
  options: BatchOptions,
  limit: AdaptiveLimit,
  work: BatchWork,
): Promise<number> {
  if (!options.out) throw new UsageError('--batch needs --out <file>: where each answer is written.');
  const output = options.out;
  const answered = await readAnswered(output);
  // A first pass counts what is left to ask, for the progress bar.
  const toAsk = await countQuestions(options.batch, answered);
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
  const write = (record: Record<string, unknown>) => {
    stream.write(`${JSON.stringify(record)}\n`);
  };
  let skipped = 0;
  let succeeded = 0;
  let failed = 0;
  const started = performance.now();
  const pending = new Set<Promise<void>>();
  const progress = await batchProgress(ctx.out, toAsk);

  /** Asks one question until it is answered or fails (a rate-limited one waits and goes again). */
  async function attempt(question: Question, signal: AbortSignal): Promise<void> {
    const began = performance.now();
    for (let attempts = 1; ; attempts++) {
      const timing = () => ({ ms: Math.round(performance.now() - began), attempts });
      try {
        const fields = await work(question, signal);
        limit.succeeded();
        succeeded += 1;
        write({ id: question.id, question: question.text, status: 'ok', ...fields, ...timing() });
        progress.done(false);
        return;
      } catch (error) {
        if (controller.signal.aborted) return; // asked again on the next run
        if (error instanceof Error && error.name === 'RateLimitError' && attempts < maxRateLimitedTries) {
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

  async function ask(question: Question): Promise<void> {
    const own = new AbortController();
    inFlight.add(own);
    try {
      await attempt(question, own.signal);
    } finally {
      inFlight.delete(own);
    }
  }

  try {
    for await (const question of readQuestions(options.batch)) {
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
  }
  const seconds = (performance.now() - started) / 1000;
  const rate = (succeeded + failed) / Math.max(seconds, 0.001);
  ctx.out.error(
    `${controller.signal.aborted ? 'Stopped' : 'Done'}: ${succeeded} answered, ${failed} failed, ${skipped} skipped (already in ${output}) in ${seconds.toFixed(1)} s, ${rate.toFixed(1)}/s.`,
  );
  if (controller.signal.aborted) return ExitCode.interrupted;
  return failed > 0 ? ExitCode.failed : ExitCode.ok;
}
