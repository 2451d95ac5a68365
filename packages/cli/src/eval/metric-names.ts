/** The scores of a result row, in continuous-eval's names and in the vendor's results column order. */
export const METRIC_NAMES = [
  'context_precision',
  'context_recall',
  'context_f1',
  'average_precision',
  'reciprocal_rank',
  'ndcg',
  'rouge_l_recall',
  'rouge_l_precision',
  'rouge_l_f1',
  'token_overlap_recall',
  'token_overlap_precision',
  'token_overlap_f1',
  'bleu_score',
  'rouge_faithfulness',
  'token_overlap_faithfulness',
  'bleu_faithfulness',
  'answer_similarity',
] as const;

/** The name of one score. */
export type MetricName = (typeof METRIC_NAMES)[number];

/** A row's scores; `answer_similarity` only where the sentence encoder is installed. */
export type Scores = Partial<Record<MetricName, number>>;

/** Metrics in the results' column order, any others after them as given: how tables and charts list them. */
export function inResultsOrder(metrics: readonly string[]): string[] {
  return [
    ...METRIC_NAMES.filter((name) => metrics.includes(name)),
    ...metrics.filter((name) => !(METRIC_NAMES as readonly string[]).includes(name)),
  ];
}
