/** Formatting of the printed figures. */
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export function latencies(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
}

/** Counts of errors by name, e.g. `APIConnectionError x3`, or `none`. */
export function errorSummary(errors: readonly unknown[]): string {
  const byName = new Map<string, number>();
  for (const error of errors) {
    const name = error instanceof Error ? error.name : typeof error;
    byName.set(name, (byName.get(name) ?? 0) + 1);
  }
  return byName.size === 0 ? 'none' : [...byName].map(([name, n]) => `${name} x${n}`).join(', ');
}
