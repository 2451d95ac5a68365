import type { Comparison, ExperimentRef, MetricComparison } from './compare.js';

/** The columns of the comparison, in the terminal, the Markdown summary and the report alike. */
export function comparisonHeader(comparison: Comparison): string[] {
  const interval = comparison.kind === 'questions' ? [`${percent(comparison.confidence)} interval`] : [];
  const dropped = comparison.kind === 'questions' ? ['dropped most'] : [];
  return [
    'experiment',
    'source',
    'metric',
    'baseline',
    'now',
    'difference',
    ...interval,
    'verdict',
    ...dropped,
  ];
}

export const percent = (share: number) => `${Number((share * 100).toFixed(2))} %`;
export const score = (value: number) => value.toFixed(3);
/** A difference with its sign; U+2212 would not survive a copy into a spreadsheet, `-` does. */
const signed = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(3)}`;
const shortQuestion = (question: string, length = 60) => {
  const flat = question.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
};

/** One metric's cells, text unescaped: each surface makes them safe for itself. */
export function comparisonCells(comparison: Comparison, row: MetricComparison): string[] {
  const interval =
    comparison.kind === 'questions'
      ? [row.interval ? `[${signed(row.interval[0])}, ${signed(row.interval[1])}]` : '–']
      : [];
  const dropped =
    comparison.kind === 'questions'
      ? [
          row.dropped
            .map(
              (drop) => `"${shortQuestion(drop.question)}" ${score(drop.baseline)} → ${score(drop.current)}`,
            )
            .join('; '),
        ]
      : [];
  return [
    row.experiment_name,
    row.source,
    row.metric,
    score(row.baseline),
    score(row.current),
    signed(row.difference),
    ...interval,
    row.verdict,
    ...dropped,
  ];
}

const named = (refs: readonly ExperimentRef[]) =>
  refs.map((ref) => `${ref.experiment_name} (${ref.source})`).join(', ');

/** How the baseline was read, in a sentence. */
export function comparisonMethod(comparison: Comparison): string {
  return comparison.kind === 'questions'
    ? `question by question, a drop larger than ${comparison.maxDrop} whose ${percent(comparison.confidence)} interval lies below zero`
    : `mean against mean, a drop larger than ${comparison.maxDrop}`;
}

/** The sentences on what was not judged, for the terminal and the summary alike. */
export function unjudgedSentences(comparison: Comparison): string[] {
  const sentences: string[] = [];
  if (comparison.judged.length === 0)
    sentences.push(
      `Nothing was judged: no experiment of this run has a row in the baseline ${comparison.baseline}.`,
    );
  if (comparison.notInBaseline.length > 0)
    sentences.push(
      `Not judged, not in the baseline${comparison.kind === 'questions' ? ' (or no question in common)' : ''}: ${named(comparison.notInBaseline)}.`,
    );
  if (comparison.notInRun.length > 0)
    sentences.push(`In the baseline but not in this run: ${named(comparison.notInRun)}.`);
  return sentences;
}

/** What the gate decided, then in a sentence why: the line a reviewer reads first. */
export function gateHeadline(comparison: Comparison): { outcome: string; detail: string } {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (comparison.judged.length === 0)
    return { outcome: 'No comparison', detail: 'no experiment of this run has a row in the baseline' };
  const regressed = comparison.metrics.filter((row) => row.verdict === 'regressed');
  if (regressed.length > 0) {
    const experiments = new Set(regressed.map((row) => JSON.stringify([row.source, row.experiment_name])))
      .size;
    return {
      outcome: 'Regressed',
      detail: `${plural(regressed.length, 'metric')} of ${plural(experiments, 'experiment')} fell below the baseline`,
    };
  }
  const noise = comparison.metrics.filter((row) => row.verdict === 'noise').length;
  return {
    outcome: 'No regression',
    detail:
      noise > 0
        ? `${plural(noise, 'drop')} larger than ${comparison.maxDrop}, within noise (the interval reaches zero)`
        : '',
  };
}
