export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** The first and third quartiles (linear interpolation between the closest ranks). */
  readonly p25: number;
  readonly p75: number;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new RangeError('cannot summarize an empty list of samples');
  for (const sample of samples) {
    if (!Number.isFinite(sample)) throw new RangeError(`sample is not a finite number: ${sample}`);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
  };
}

/** The `q` quantile of sorted samples, interpolated between the two closest ranks. */
function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const low = sorted[below] as number;
  const high = sorted[Math.min(below + 1, sorted.length - 1)] as number;
  return low + (high - low) * (position - below);
}

/**
 * A distribution-free confidence interval for the median: the order statistics x(k) and x(n+1-k),
 * with k the largest rank such that fewer than k of n samples fall below the median with probability
 * at most (1 - level) / 2 (the binomial sign test). Undefined when n is too small for the level.
 */
export function medianInterval(
  samples: readonly number[],
  level = 0.95,
): { low: number; high: number } | undefined {
  const n = samples.length;
  const tail = (1 - level) / 2;
  // P(X <= j) for X ~ Binomial(n, 1/2), summed in logs so large n does not overflow.
  const logHalfN = n * Math.log(0.5);
  let logChoose = 0;
  let cumulative = 0;
  let k = 0;
  for (let j = 0; j < n; j++) {
    if (j > 0) logChoose += Math.log((n - j + 1) / j);
    cumulative += Math.exp(logChoose + logHalfN);
    if (cumulative > tail) break;
    k = j + 1;
  }
  if (k === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  return { low: sorted[k - 1] as number, high: sorted[n - k] as number };
}
