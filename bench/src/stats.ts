export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new RangeError('cannot summarize an empty list of samples');
  for (const sample of samples) {
    if (!Number.isFinite(sample)) throw new RangeError(`sample is not a finite number: ${sample}`);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number };
}
