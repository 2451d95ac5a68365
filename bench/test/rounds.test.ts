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
