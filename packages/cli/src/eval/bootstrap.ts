import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Resamples drawn per interval: the percentile bounds at 95 % move by about 0.1 % of the spread between seeds. */
const RESAMPLES = 4000;
/** The seed every interval starts from: the same differences give the same interval, run after run. */
const BOOTSTRAP_SEED = 20_250_807;

/** The mean of paired differences and the bootstrap interval around it. */
export interface MeanInterval {
  mean: number;
  low: number;
  high: number;
}

const meanOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The `p` quantile of sorted values, interpolated between neighbours (R's type 7, NumPy's default). */
function quantile(sorted: Float64Array, p: number): number {
  const at = (sorted.length - 1) * p;
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return (sorted[below] as number) + ((sorted[above] as number) - (sorted[below] as number)) * (at - below);
}

/**
 * The percentile bootstrap interval of the mean of `differences` (one per question, now minus before)
 * at `confidence`: the questions are resampled with replacement `resamples` times, with a seeded
 * generator (pure-rand's xoroshiro128+), so the interval depends on the differences and their order
 * alone. Over questions, since they are what a golden set samples: an interval that lies below zero
 * says the drop would show on other questions of the same kind too.
 */
export function pairedBootstrap(
  differences: readonly number[],
  confidence: number,
  resamples = RESAMPLES,
): MeanInterval {
  const n = differences.length;
  if (n === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const rng = xoroshiro128plus(BOOTSTRAP_SEED);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r += 1) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += differences[uniformInt(rng, 0, n - 1)] as number;
    means[r] = sum / n;
  }
  means.sort();
  const tail = (1 - confidence) / 2;
  return { mean: meanOf(differences), low: quantile(means, tail), high: quantile(means, 1 - tail) };
}
