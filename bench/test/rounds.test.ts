import { medianInterval } from '@dataworkz/measure';
import { describe, expect, it } from 'vitest';
import { blockOrder, differenceRows, interleavedRounds, ratioRows } from '../src/sections/rounds.js';

describe('blockOrder', () => {
  it('runs every subject twice per round, mirrored, starting with the next subject each round', () => {
    expect(blockOrder(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c', 'c', 'b', 'a']);
    expect(blockOrder(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a', 'a', 'c', 'b']);
    expect(blockOrder(['a', 'b', 'c'], 3)).toEqual(blockOrder(['a', 'b', 'c'], 0));
  });

  it('puts each subject at the same mean position, so a steady drift falls on all alike', () => {
    for (let round = 0; round < 3; round++) {
      const order = blockOrder(['a', 'b', 'c'], round);
      const meanPosition = (s: string) => order.reduce((sum, x, i) => (x === s ? sum + i : sum), 0) / 2;
      expect(new Set(['a', 'b', 'c'].map(meanPosition))).toEqual(new Set([2.5]));
    }
  });
});

describe('interleavedRounds', () => {
  it('adds up each subject’s two blocks per round', async () => {
    const order: string[] = [];
    const times = await interleavedRounds(['x', 'y'], 2, async (subject) => {
      order.push(subject);
      return subject === 'x' ? 1 : 10;
    });
    expect(order).toEqual(['x', 'y', 'y', 'x', 'y', 'x', 'x', 'y']);
    expect(times.get('x')).toEqual([2, 2]);
    expect(times.get('y')).toEqual([20, 20]);
  });

  it('cancels a drift that grows steadily through the round', async () => {
    // Every block takes 1 ms more than the one before, whoever runs it: equal subjects stay equal.
    let clock = 0;
    const times = await interleavedRounds(['a', 'b', 'c'], 3, async () => 10 + clock++);
    for (let round = 0; round < 3; round++) {
      const perSubject = ['a', 'b', 'c'].map((s) => times.get(s)?.[round]);
      expect(new Set(perSubject).size).toBe(1);
    }
  });
});

describe('ratioRows and differenceRows', () => {
  const perRound = new Map([
    ['ours', [110, 210, 90]],
    ['base', [100, 200, 100]],
  ]);

  it('compares the figures of the same round', () => {
    const [ratio] = ratioRows('s', 'm', perRound, [
      { subject: 'ours', baseline: 'base', goals: [{ kind: 'max', value: 1.03 }] },
    ]);
    expect(ratio).toMatchObject({ subject: 'ours ÷ base', unit: '×', goals: [{ kind: 'max', value: 1.03 }] });
    expect(ratio?.samples).toEqual([1.1, 1.05, 0.9]);
    const [difference] = differenceRows('s', 'm', 'µs', perRound, [{ subject: 'ours', baseline: 'base' }]);
    expect(difference).toMatchObject({ subject: 'ours − base', unit: 'µs', samples: [10, 10, -10] });
  });

  it('refuses a comparison with a subject that has no figures', () => {
    expect(() => ratioRows('s', 'm', perRound, [{ subject: 'ours', baseline: 'none' }])).toThrow(/none/);
  });
});

describe('medianInterval', () => {
  it('takes the order statistics of the sign test', () => {
    // n = 30 at 95 %: the 10th and 21st smallest (P(X ≤ 9) = 0.021 ≤ 0.025 < P(X ≤ 10) = 0.049).
    const samples = Array.from({ length: 30 }, (_, i) => 30 - i);
    expect(medianInterval(samples)).toEqual({ low: 10, high: 21 });
    // n = 8: the 1st and 8th (P(X ≤ 0) = 0.004, P(X ≤ 1) = 0.035).
    expect(medianInterval([1, 2, 3, 4, 5, 6, 7, 8])).toEqual({ low: 1, high: 8 });
  });

  it('has none when there are too few samples for the level', () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toBeUndefined();
  });

  it('narrows as rounds are added', () => {
    const spread = (n: number) => {
      const samples = Array.from({ length: n }, (_, i) => i / n);
      const interval = medianInterval(samples);
      return interval ? interval.high - interval.low : Number.NaN;
    };
    expect(spread(120)).toBeLessThan(spread(30));
  });
});
