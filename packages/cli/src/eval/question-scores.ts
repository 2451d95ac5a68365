import type { StatsRow } from './stats.js';

/** One source and experiment: each question's mean score per metric (over its repetitions). */
export interface QuestionGroup {
  source: string;
  experiment_name: string;
  /** By question text, in the order the questions first came. */
  questions: Map<string, Record<string, number>>;
}

interface Sums {
  source: string;
  experiment: string;
  questions: Map<string, Map<string, { sum: number; n: number }>>;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The key of a source and experiment, for maps (no separator can clash). */
export const groupKey = (source: string, experiment: string) => JSON.stringify([source, experiment]);

/**
 * Running sums per source, experiment and question. A question answered several times (`--repeat`)
 * counts once, with the mean of its answers: the statistics and the paired comparison are over
 * questions, so repetitions narrow each question's noise without weighing it more.
 */
export class QuestionScores {
  private readonly groups = new Map<string, Sums>();

  add(source: string, experiment: string, question: string, scores: Readonly<Record<string, unknown>>): void {
    const key = groupKey(source, experiment);
    let group = this.groups.get(key);
    if (!group) {
      group = { source, experiment, questions: new Map() };
      this.groups.set(key, group);
    }
    let sums = group.questions.get(question);
    if (!sums) {
      sums = new Map();
      group.questions.set(question, sums);
    }
    for (const [metric, value] of Object.entries(scores)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      const sum = sums.get(metric) ?? { sum: 0, n: 0 };
      sum.sum += value;
      sum.n += 1;
      sums.set(metric, sum);
    }
  }

  /** Each group's per-question means, in pandas' groupby order (by code point, not by locale). */
  groupsByQuestion(): QuestionGroup[] {
    return [...this.groups.values()]
      .sort((a, b) => byCodePoint(a.source, b.source) || byCodePoint(a.experiment, b.experiment))
      .map((group) => ({
        source: group.source,
        experiment_name: group.experiment,
        questions: new Map(
          [...group.questions].map(([question, sums]) => [
            question,
            Object.fromEntries([...sums].map(([metric, { sum, n }]) => [metric, sum / n])),
          ]),
        ),
      }));
  }

  /** The stats: per group, the mean over its questions of each question's mean. */
  rows(): StatsRow[] {
    return this.groupsByQuestion().map(statsOf);
  }
}

/**
 * A group's stats row. The questions are summed in the order they came, as pandas sums a column: with
 * one answer per question the means are the vendor's to the bit.
 */
function statsOf(group: QuestionGroup): StatsRow {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const scores of group.questions.values()) {
    for (const [metric, value] of Object.entries(scores)) {
      const sum = sums.get(metric) ?? { sum: 0, n: 0 };
      sum.sum += value;
      sum.n += 1;
      sums.set(metric, sum);
    }
  }
  return {
    source: group.source,
    experiment_name: group.experiment_name,
    count: group.questions.size,
    means: Object.fromEntries([...sums].map(([metric, { sum, n }]) => [metric, sum / n])),
  };
}
