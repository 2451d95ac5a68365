import {
  type Baseline,
  compareWithBaseline,
  pairedBootstrap,
  type QuestionGroup,
  QuestionScores,
} from '@dataworkz/cli/eval';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const score = fc.double({ min: 0, max: 1, noNaN: true });
const differences = fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 2, maxLength: 40 });

/** One experiment's per-question scores of one metric, as a baseline and as a run. */
function groupOf(scores: readonly number[], metric = 'rouge_l_f1'): QuestionGroup {
  return {
    source: 'support',
    experiment_name: 'KB',
    questions: new Map(
      scores.map((value, i) => [`question ${String(i).padStart(3, '0')}`, { [metric]: value }]),
    ),
  };
}

function judge(before: readonly number[], now: readonly number[], maxDrop = 0.05, confidence = 0.95) {
  const scores = new QuestionScores();
  const base = new QuestionScores();
  for (const [i, value] of before.entries()) {
    base.add('support', 'KB', `question ${String(i).padStart(3, '0')}`, { rouge_l_f1: value });
  }
  for (const [i, value] of now.entries()) {
    scores.add('support', 'KB', `question ${String(i).padStart(3, '0')}`, { rouge_l_f1: value });
  }
  const baseline: Baseline = {
    kind: 'questions',
    file: 'results.csv',
    stats: base.rows(),
    groups: base.groupsByQuestion(),
  };
  return compareWithBaseline(
    baseline,
    { stats: scores.rows(), groups: scores.groupsByQuestion() },
    { maxDrop, confidence },
  );
}

describe('the paired bootstrap', () => {
  it('gives the same interval for the same differences, run after run', () => {
    fc.assert(
      fc.property(differences, fc.double({ min: 0.5, max: 0.99, noNaN: true }), (values, confidence) => {
        expect(pairedBootstrap(values, confidence)).toEqual(pairedBootstrap([...values], confidence));
      }),
      { numRuns: 50 },
    );
  });

  it('holds its interval between the smallest and largest difference, around the mean, wider at a higher confidence', () => {
    fc.assert(
      fc.property(differences, (values) => {
        const at95 = pairedBootstrap(values, 0.95);
        const at80 = pairedBootstrap(values, 0.8);
        expect(at95.low).toBeGreaterThanOrEqual(Math.min(...values) - 1e-12);
        expect(at95.high).toBeLessThanOrEqual(Math.max(...values) + 1e-12);
        expect(at95.low).toBeLessThanOrEqual(at80.low + 1e-12);
        expect(at95.high).toBeGreaterThanOrEqual(at80.high - 1e-12);
        expect(at95.low).toBeLessThanOrEqual(at95.high);
      }),
      { numRuns: 50 },
    );
  });

  it('moves with a shift of every difference', () => {
    fc.assert(
      fc.property(differences, fc.double({ min: -0.5, max: 0.5, noNaN: true }), (values, shift) => {
        const plain = pairedBootstrap(values, 0.95);
        const shifted = pairedBootstrap(
          values.map((value) => value + shift),
          0.95,
        );
        expect(shifted.low).toBeCloseTo(plain.low + shift, 9);
        expect(shifted.high).toBeCloseTo(plain.high + shift, 9);
      }),
      { numRuns: 50 },
    );
  });

  it('covers zero when the differences are noise around none (each rise matched by a fall)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.01, max: 1, noNaN: true }), { minLength: 5, maxLength: 30 }),
        (half) => {
          const { low, high } = pairedBootstrap([...half, ...half.map((value) => -value)], 0.95);
          expect(low).toBeLessThan(0);
          expect(high).toBeGreaterThan(0);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('the per-question verdict', () => {
  it('passes a run equal to its baseline, whatever the scores', () => {
    fc.assert(
      fc.property(fc.array(score, { minLength: 1, maxLength: 30 }), (scores) => {
        const [row] = judge(scores, scores).metrics;
        expect(row).toMatchObject({ verdict: 'ok', difference: 0, interval: [0, 0] });
      }),
      { numRuns: 50 },
    );
  });

  it('flags a clear drop on every question: more than the allowed drop, and the interval below zero', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: 0.3, max: 1, noNaN: true }),
            fc.double({ min: 0.1, max: 0.3, noNaN: true }),
          ),
          {
            minLength: 10,
            maxLength: 30,
          },
        ),
        (pairs) => {
          const [row] = judge(
            pairs.map(([before]) => before),
            pairs.map(([before, drop]) => before - drop),
          ).metrics;
          expect(row?.verdict).toBe('regressed');
          expect(row?.interval?.[1]).toBeLessThan(0);
          expect(row?.dropped).toHaveLength(3);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('calls a mean drop past the allowed one noise when a few questions carry it and the interval reaches zero', () => {
    // 30 questions, two of them fall from 1 to 0: a mean drop of 0.067, on two questions only.
    const before = Array.from({ length: 30 }, () => 1);
    const now = before.map((value, i) => (i < 2 ? 0 : value));
    const [row] = judge(before, now).metrics;
    expect(row?.difference).toBeCloseTo(-2 / 30, 12);
    expect(row?.interval?.[1]).toBe(0);
    expect(row?.verdict).toBe('noise');
    // The same drop against a stats baseline (mean against mean) fails: it cannot tell.
    const scores = new QuestionScores();
    for (const [i, value] of now.entries()) {
      scores.add('support', 'KB', `q${i}`, { rouge_l_f1: value });
    }
    const means = compareWithBaseline(
      {
        kind: 'means',
        file: 'stats.csv',
        stats: [{ source: 'support', experiment_name: 'KB', count: 30, means: { rouge_l_f1: 1 } }],
      },
      { stats: scores.rows(), groups: scores.groupsByQuestion() },
      { maxDrop: 0.05, confidence: 0.95 },
    );
    expect(means.metrics[0]?.verdict).toBe('regressed');
  });

  it('pairs questions by their text whatever order the answers came in, and averages repetitions', () => {
    const base = groupOf([0.5, 0.7, 0.9]);
    const scores = new QuestionScores();
    // The run's answers in another order, each question answered twice.
    for (const [question, values] of [
      ['question 002', [0.8, 1]],
      ['question 000', [0.4, 0.6]],
      ['question 001', [0.7, 0.7]],
    ] as const) {
      for (const value of values) scores.add('support', 'KB', question, { rouge_l_f1: value });
    }
    expect(scores.rows()[0]).toMatchObject({ count: 3 });
    const result = compareWithBaseline(
      { kind: 'questions', file: 'results.csv', stats: [], groups: [base] },
      { stats: scores.rows(), groups: scores.groupsByQuestion() },
      { maxDrop: 0.05, confidence: 0.95 },
    );
    expect(result.metrics[0]?.difference).toBeCloseTo(0, 12);
    expect(result.metrics[0]?.questions).toBe(3);
  });
});
