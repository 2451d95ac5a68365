import { medianInterval, summarize } from '@dataworkz/measure';
import { describe, expect, it } from 'vitest';

// One quantile definition for every figure in the repository: linear interpolation between the two
// closest ranks (Hyndman and Fan's type 7, the default of R and NumPy).
describe('summarize', () => {
  it('gives the median of an odd and an even number of samples, with min and max', () => {
    expect(summarize([5, 1, 3])).toMatchObject({ median: 3, min: 1, max: 5 });
    expect(summarize([4, 1, 3, 2])).toMatchObject({ median: 2.5, min: 1, max: 4 });
  });

  it('gives the quartiles, interpolated between the closest ranks', () => {
    expect(summarize([1, 2, 3, 4, 5])).toMatchObject({ p25: 2, p75: 4 });
    expect(summarize([4, 1, 3, 2])).toMatchObject({ p25: 1.75, p75: 3.25 });
    expect(summarize([7])).toMatchObject({ p25: 7, p75: 7 });
  });

  it('refuses an empty list and values that are not finite', () => {
    expect(() => summarize([])).toThrow(RangeError);
    expect(() => summarize([1, Number.NaN])).toThrow(/finite/);
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
