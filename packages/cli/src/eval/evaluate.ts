import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dataworkz, RetryEvent } from '@dataworkz/client';
import { AdaptiveLimit } from '../batch/adaptive-limit.js';
import type { Question } from '../batch/questions.js';
import { type BatchOutput, runBatch } from '../batch/run-batch.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { answerScores } from './answer-metrics.js';
import { readBaseline } from './baseline.js';
import { type Comparison, compareWithBaseline, type MetricComparison } from './compare.js';
import { type GoldenFileError, type GoldenRow, readGolden } from './golden.js';
import { METRIC_NAMES, type Scores } from './metric-names.js';
import { answerChunks } from './probe.js';
import { QuestionScores } from './question-scores.js';
import { writeReport } from './report.js';
import { writeResultsCsv, writeStatsCsv } from './results-csv.js';
import { type ResultLine, readResults } from './results-file.js';
import { retrievalScores } from './retrieval-metrics.js';
import { type AnswerSimilarity, loadAnswerSimilarity } from './similarity.js';
import type { StatsRow } from './stats.js';
import { writeSummary } from './summary-markdown.js';

/** One QnA system answering with one LLM: a column of the comparison. */
export interface Experiment {
  /** The system's name, with the LLM's when several LLMs are compared. */
  name: string;
  systemId: string;
  llmProviderId: string;
}

/** What `evaluateQna` asks, of which systems and LLMs, and where it writes. */
export interface EvaluateOptions {
  /** The client every question is asked with. */
  client: Dataworkz;
  /** The golden set: the vendor's FinanceBench or LegalBench CSV, or JSONL with the same fields. */
  golden: string;
  /** The QnA systems, by id or exact name. */
  systems: readonly string[];
  /** The LLMs, by id or model name; each system answers with each. Default: each system's first. */
  llms?: readonly string[] | undefined;
  /** The folder the results, stats and report are written to; a rerun there resumes. */
  outDir: string;
  /** Only the first this many golden rows. */
  limit?: number | undefined;
  /** Questions in flight at most (default 4; fewer while the service pushes back). */
  concurrency?: number | undefined;
  /** Refuse a malformed golden row (GoldenFileError) rather than skip it. */
  strict?: boolean | undefined;
  /**
   * The file to compare with, told apart by its columns: a `results.csv` (compared question by question:
   * a metric regressed when its mean per-question difference falls more than `maxDrop` and its
   * bootstrap interval at `confidence` lies below zero) or a `stats.csv` (mean against mean: a metric
   * more than `maxDrop` below it regressed).
   */
  baseline?: string | undefined;
  /** Default 0.05. */
  maxDrop?: number | undefined;
  /** The confidence of the interval of a per-question comparison, above 0 and below 1 (default 0.95). */
  confidence?: number | undefined;
  /**
   * Ask each question this many times of each experiment (default 1): each answer is a line of the
   * results, and a question's score is the mean of its answers.
   */
  repeat?: number | undefined;
  /**
   * Score `answer_similarity` with the sentence encoder, where it is installed (default false: it takes
   * about 0.1 s of CPU per answer, which bounds the rate a large evaluation runs at).
   */
  similarity?: boolean | undefined;
  /**
   * Score as the vendor's harness calls continuous-eval, call for call: the ground-truth context is the
   * raw `gt_context` cell (LegalBench: `gt_answer`), a string, which continuous-eval reads character by
   * character; the answer is scored against the raw `gt_answer`. Default false: the context is read as
   * its passages, the measure the metrics mean.
   */
  asVendor?: boolean | undefined;
  /** Where warnings and the batch's summary go (default: nowhere). */
  log?: ((line: string) => void) | undefined;
  /** A progress bar on stderr (the CLI on a terminal). */
  progressBar?: boolean | undefined;
}

/** What an evaluation found: the mean scores, the counts, and any regression. */
export interface EvaluationResult {
  experiments: Experiment[];
  /** The mean of each metric per source and experiment, as `stats.csv` holds them. */
  stats: StatsRow[];
  /** Results scored, and questions that failed (in the results JSONL with their error). */
  scored: number;
  failed: number;
  /** Golden rows skipped as malformed. */
  malformed: number;
  /** Stopped by Ctrl-C: the files hold what was answered; a rerun resumes. */
  interrupted: boolean;
  /** The metrics judged regressed (empty without a baseline). */
  regressions: MetricComparison[];
  /** The run set against the baseline, when one was given. */
  comparison?: Comparison | undefined;
  /** Whether `answer_similarity` was scored (asked for, and the sentence encoder is installed). */
  similarity: boolean;
  files: { results: string; resultsJsonl: string; stats: string; report: string; summary: string };
}

const AS_VENDOR_TAG = '|as-vendor';
/** The part of a result's id that says which answer to its question it is (the first has none). */
const repetitionTag = (repetition: number) => (repetition > 1 ? `|repeat-${repetition}` : '');
const REPETITION_TAG = /\|repeat-\d+(?=(?:\|as-vendor)?$)/;

interface EvalItem extends Question {
  row: GoldenRow;
  experiment: Experiment;
  repetition: number;
}

async function experimentsOf(
  client: Dataworkz,
  systems: readonly string[],
  llms: readonly string[],
): Promise<Experiment[]> {
  if (systems.length === 0) throw new UsageError('Name at least one QnA system to evaluate (--system).');
  const resolved = await client.qna.resolveAll(systems);
  const experiments: Experiment[] = [];
  for (const system of resolved) {
    if (llms.length === 0) {
      const { llmProviderId } = await client.qna.answeringLlm(system.systemId);
      experiments.push({ name: system.name, systemId: system.systemId, llmProviderId });
      continue;
    }
    for (const given of llms) {
      const llm = await client.qna.resolveLlm(system.systemId, given);
      experiments.push({
        name: llms.length > 1 ? `${system.name} / ${llm.name}` : system.name,
        systemId: system.systemId,
        llmProviderId: llm.llmProviderId,
      });
    }
  }
  const names = new Set(experiments.map((experiment) => experiment.name));
  if (names.size < experiments.length) throw new UsageError('A system or LLM is named twice.');
  return experiments;
}

function score(
  row: GoldenRow,
  asVendor: boolean,
  answer: string,
  chunks: string[],
  context: string[],
  similarity?: number,
): Scores {
  // The vendor's harness hands continuous-eval a string where a list goes: a list of its characters.
  const groundTruth = asVendor ? Array.from(row.gtContextRaw) : row.gtContext;
  return {
    ...retrievalScores(chunks, groundTruth),
    ...answerScores(answer, asVendor ? row.gtAnswerRaw : row.gtAnswer, context),
    ...(similarity !== undefined ? { answer_similarity: similarity } : {}),
  };
}

/**
 * Evaluates QnA systems on a golden set as the vendor's harness does: each question asked of each
 * experiment with the probe on, the LLM's chunks scored against the golden context and the answer
 * against the golden answer with continuous-eval's deterministic metrics. Questions run through the CLI's
 * batch (back-off on 429s, resume from `results.jsonl`); the CSVs and report are then streamed from it.
 */
export async function evaluateQna(options: EvaluateOptions): Promise<EvaluationResult> {
  const { client } = options;
  const maxDrop = options.maxDrop ?? 0.05;
  if (!(maxDrop >= 0)) throw new UsageError('The allowed drop must be a number of 0 or more.');
  if (options.limit !== undefined && !(Number.isInteger(options.limit) && options.limit > 0))
    throw new UsageError('The limit must be a positive integer.');
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError('The concurrency must be a positive integer.');
  const confidence = options.confidence ?? 0.95;
  if (!(confidence > 0 && confidence < 1))
    throw new UsageError('The confidence must be above 0 and below 1.');
  const repeat = options.repeat ?? 1;
  if (!(Number.isInteger(repeat) && repeat > 0))
    throw new UsageError('The repeat count must be a positive integer.');
  const baseline = options.baseline !== undefined ? await readBaseline(options.baseline) : undefined;
  const experiments = await experimentsOf(client, options.systems, options.llms ?? []);
  await mkdir(options.outDir, { recursive: true });
  const files = {
    results: join(options.outDir, 'results.csv'),
    resultsJsonl: join(options.outDir, 'results.jsonl'),
    stats: join(options.outDir, 'stats.csv'),
    report: join(options.outDir, 'report.html'),
    summary: join(options.outDir, 'summary.md'),
  };
  const log = options.log ?? (() => undefined);
  const similarity: AnswerSimilarity | undefined =
    options.similarity === true ? await loadAnswerSimilarity() : undefined;

  // The golden file is read twice by the batch (a count, then the run): a malformed row is told once.
  const told = new Set<number>();
  let malformed = 0;
  const onMalformed = options.strict
    ? undefined
    : (error: GoldenFileError) => {
        if (told.has(error.line)) return;
        told.add(error.line);
        malformed += 1;
        log(`Skipped ${error.message}`);
      };
  const modeTag = options.asVendor === true ? AS_VENDOR_TAG : '';
  async function* items(file: string): AsyncGenerator<EvalItem> {
    for await (const row of readGolden(file, { limit: options.limit, onMalformed })) {
      for (const experiment of experiments) {
        for (let repetition = 1; repetition <= repeat; repetition += 1) {
          yield {
            // A vendor-mode result is its own line: a folder run both ways keeps both, each CSV its own.
            // The first answer keeps the id it had before repetitions, so a folder resumes either way.
            id: `${row.id}|${experiment.systemId}|${experiment.llmProviderId}${repetitionTag(repetition)}${modeTag}`,
            text: row.question,
            line: row.line,
            row,
            experiment,
            repetition,
          };
        }
      }
    }
  }

  const limit = new AdaptiveLimit(concurrency);
  const onRetry = (retry: RetryEvent) => {
    if (retry.error.name === 'RateLimitError') limit.pushedBack(retry.waitMs);
  };
  const out: BatchOutput = { error: log, interactive: options.progressBar === true, json: false };
  const code = await runBatch(
    out,
    { batch: options.golden, out: files.resultsJsonl, concurrency },
    limit,
    async (item, call) => {
      const { row, experiment, repetition } = item;
      const response = await client.qna.answer(
        experiment.systemId,
        {
          questionText: row.question,
          llmProviderId: experiment.llmProviderId,
          properties: { include_probe: true },
        },
        {
          signal: call.signal,
          onRetry: (retry) => {
            onRetry(retry);
            call.retried();
          },
        },
      );
      const { chunks, from } = answerChunks(response);
      const context = response.context.map((item) => item.data ?? item.contents ?? '');
      const similar = similarity ? await similarity(response.answer, row.gtAnswer) : undefined;
      return {
        experiment_name: experiment.name,
        source: row.source,
        ...(repeat > 1 ? { repetition } : {}),
        gt_answer: row.gtAnswerRaw,
        system_answer: response.answer,
        chunks,
        chunks_from: from,
        scores: score(row, options.asVendor === true, response.answer, chunks, context, similar),
      };
    },
    items,
  );

  const ofThisMode = (line: ResultLine) => line.id.endsWith(AS_VENDOR_TAG) === (options.asVendor === true);
  // Every line of the folder's results, this run's and earlier runs', in one pass.
  // The stats per golden row, as the vendor's harness averages its rows (two rows may ask the same
  // question); the comparison per question text, which is what a results.csv baseline can match on.
  const byRow = new QuestionScores();
  const byQuestion = new QuestionScores();
  let scored = 0;
  let failed = 0;
  const wanted = new Set(experiments.map((experiment) => experiment.name));
  await writeResultsCsv(
    files.results,
    METRIC_NAMES.filter((name) => name !== 'answer_similarity' || similarity !== undefined),
    repeat > 1,
    (async function* () {
      for await (const line of readResults(files.resultsJsonl)) {
        if (!ofThisMode(line)) continue;
        if (line.status !== 'ok' || !line.scores) {
          failed += 1;
          continue;
        }
        if (!wanted.has(line.experiment_name ?? '')) continue;
        scored += 1;
        const source = line.source ?? '';
        const experiment = line.experiment_name ?? '';
        byRow.add(source, experiment, line.id.replace(REPETITION_TAG, ''), line.scores);
        byQuestion.add(source, experiment, line.question, line.scores);
        yield line;
      }
    })(),
  );
  const stats = byRow.rows();
  const comparison = baseline
    ? compareWithBaseline(baseline, { stats, groups: byQuestion.groupsByQuestion() }, { maxDrop, confidence })
    : undefined;
  await writeStatsCsv(files.stats, stats);
  const title = `QnA evaluation: ${options.golden.split(/[\\/]/).pop()}`;
  await writeSummary(files.summary, title, stats, comparison);
  await writeReport(files.report, {
    title,
    stats,
    comparison,
    results: files.resultsJsonl,
    include: ofThisMode,
  });
  return {
    experiments,
    stats,
    scored,
    failed,
    malformed,
    interrupted: code === ExitCode.interrupted,
    regressions: comparison?.metrics.filter((row) => row.verdict === 'regressed') ?? [],
    comparison,
    similarity: similarity !== undefined,
    files,
  };
}
