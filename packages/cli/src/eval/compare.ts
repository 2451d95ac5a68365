import type { Baseline } from './baseline.js';
import { pairedBootstrap } from './bootstrap.js';
import { groupKey, type QuestionGroup } from './question-scores.js';
import type { StatsRow } from './stats.js';

/**
 * What the gate says of one metric: `regressed` fails it; `noise` is a drop larger than the allowed one
 * whose interval still reaches zero (a per-question baseline only); `ok` is a drop within the allowed
 * one, or none.
 */
export type Verdict = 'regressed' | 'noise' | 'ok';

/** A question whose score fell, with both scores (each the mean of its repetitions). */
export interface DroppedQuestion {
  question: string;
  baseline: number;
  current: number;
}

/** One metric of one experiment, before and now. */
export interface MetricComparison {
  source: string;
  experiment_name: string;
  metric: string;
  /** The mean before and now: over the questions in both, for a per-question baseline. */
  baseline: number;
  current: number;
  /** `current - baseline`: negative is a drop. */
  difference: number;
  /** The bootstrap interval of the difference at the chosen confidence (a per-question baseline only). */
  interval?: [number, number] | undefined;
  /** The questions compared (a per-question baseline only). */
  questions?: number | undefined;
  verdict: Verdict;
  /** The questions that dropped most, worst first (at most three; a per-question baseline only). */
  dropped: DroppedQuestion[];
}

/** A source and experiment, as the comparison names it. */
export interface ExperimentRef {
  source: string;
  experiment_name: string;
}

/** A run set against its baseline. */
export interface Comparison {
  /** The baseline file. */
  baseline: string;
  /** `questions`: a results file, compared question by question; `means`: a stats file, mean against mean. */
  kind: 'questions' | 'means';
  confidence: number;
  maxDrop: number;
  /** Every metric of every experiment judged, the regressions first. */
  metrics: MetricComparison[];
  /** The experiments judged. */
  judged: ExperimentRef[];
  /** Experiments of the run with no baseline row (or, per question, no question in common): not judged. */
  notInBaseline: ExperimentRef[];
  /** Baseline rows with no experiment of the run. */
  notInRun: ExperimentRef[];
}

/** What the comparison needs of the run. */
export interface CurrentScores {
  stats: readonly StatsRow[];
  groups: readonly QuestionGroup[];
}

// A hair of tolerance: a rerun's floating-point sums must not fail the gate.
const EPSILON = 1e-9;
const DROPPED_SHOWN = 3;
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const VERDICT_ORDER: Record<Verdict, number> = { regressed: 0, noise: 1, ok: 2 };
const refOf = (row: ExperimentRef): ExperimentRef => ({
  source: row.source,
  experiment_name: row.experiment_name,
});

function byMeans(base: StatsRow, now: StatsRow, maxDrop: number): MetricComparison[] {
  const found: MetricComparison[] = [];
  for (const [metric, current] of Object.entries(now.means)) {
    const baseline = base.means[metric];
    if (baseline === undefined) continue;
    const difference = current - baseline;
    found.push({
      ...refOf(now),
      metric,
      baseline,
      current,
      difference,
      verdict: -difference > maxDrop + EPSILON ? 'regressed' : 'ok',
      dropped: [],
    });
  }
  return found;
}

function byQuestions(
  base: QuestionGroup,
  now: QuestionGroup,
  maxDrop: number,
  confidence: number,
): MetricComparison[] {
  // In code-point order: the interval depends on the scores alone, not on the order answers came in.
  const shared = [...now.questions.keys()]
    .filter((question) => base.questions.has(question))
    .sort(byCodePoint);
  const metrics = new Set(shared.flatMap((question) => Object.keys(now.questions.get(question) ?? {})));
  const found: MetricComparison[] = [];
  for (const metric of metrics) {
    const pairs: DroppedQuestion[] = [];
    for (const question of shared) {
      const baseline = base.questions.get(question)?.[metric];
      const current = now.questions.get(question)?.[metric];
      if (baseline !== undefined && current !== undefined) pairs.push({ question, baseline, current });
    }
    if (pairs.length === 0) continue;
    const { mean, low, high } = pairedBootstrap(
      pairs.map((pair) => pair.current - pair.baseline),
      confidence,
    );
    const dropLarge = -mean > maxDrop + EPSILON;
    found.push({
      ...refOf(now),
      metric,
      baseline: pairs.reduce((sum, pair) => sum + pair.baseline, 0) / pairs.length,
      current: pairs.reduce((sum, pair) => sum + pair.current, 0) / pairs.length,
      difference: mean,
      interval: [low, high],
      questions: pairs.length,
      verdict: dropLarge ? (high < 0 ? 'regressed' : 'noise') : 'ok',
      dropped: pairs
        .filter((pair) => pair.current < pair.baseline)
        .sort(
          (a, b) => a.current - a.baseline - (b.current - b.baseline) || byCodePoint(a.question, b.question),
        )
        .slice(0, DROPPED_SHOWN),
    });
  }
  return found;
}

/**
 * Sets a run against its baseline, experiment by experiment (matched by `source` and
 * `experiment_name`): against a stats file a metric regressed when its mean fell more than `maxDrop`;
 * against a results file when the mean of the per-question differences fell more than `maxDrop` and
 * its bootstrap interval at `confidence` lies wholly below zero.
 */
export function compareWithBaseline(
  baseline: Baseline,
  current: CurrentScores,
  options: { maxDrop: number; confidence: number },
): Comparison {
  const { maxDrop, confidence } = options;
  const metrics: MetricComparison[] = [];
  const judged: ExperimentRef[] = [];
  const notInBaseline: ExperimentRef[] = [];
  const seen = new Set<string>();
  if (baseline.kind === 'means') {
    const before = new Map(baseline.stats.map((row) => [groupKey(row.source, row.experiment_name), row]));
    for (const row of current.stats) {
      const key = groupKey(row.source, row.experiment_name);
      const base = before.get(key);
      if (!base) {
        notInBaseline.push(refOf(row));
        continue;
      }
      seen.add(key);
      judged.push(refOf(row));
      metrics.push(...byMeans(base, row, maxDrop));
    }
  } else {
    const before = new Map(
      baseline.groups.map((group) => [groupKey(group.source, group.experiment_name), group]),
    );
    for (const group of current.groups) {
      const key = groupKey(group.source, group.experiment_name);
      const base = before.get(key);
      if (base) seen.add(key);
      const found = base ? byQuestions(base, group, maxDrop, confidence) : [];
      if (found.length === 0) {
        notInBaseline.push(refOf(group));
        continue;
      }
      judged.push(refOf(group));
      metrics.push(...found);
    }
  }
  const notInRun = baseline.stats
    .filter((row) => !seen.has(groupKey(row.source, row.experiment_name)))
    .map(refOf);
  // Stable: within a verdict, the experiments' and metrics' own order.
  metrics.sort((a, b) => VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict]);
  return {
    baseline: baseline.file,
    kind: baseline.kind,
    confidence,
    maxDrop,
    metrics,
    judged,
    notInBaseline,
    notInRun,
  };
}
