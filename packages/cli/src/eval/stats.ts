import { UsageError } from '../exit-codes.js';

/** The mean of each metric over one source and experiment, as the vendor's stats file has it. */
export interface StatsRow {
  source: string;
  experiment_name: string;
  /** Questions scored. */
  count: number;
  means: Record<string, number>;
}

/** The stats columns after `source` and `experiment_name`: sorted, as pandas' `setdiff1d` leaves them. */
export function statsMetrics(rows: readonly StatsRow[]): string[] {
  return [...new Set(rows.flatMap((row) => Object.keys(row.means)))].sort();
}

/**
 * A CSV record as our files mean it: a text cell that looks like a formula was written with a leading
 * `'` (see `results-csv.ts`), which reading takes off again.
 */
export function withoutFormulaQuotes(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).map(([column, value]) => [
      column,
      /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value,
    ]),
  );
}

/** The rows of a stats CSV (ours or the vendor's), from its parsed records. */
export function statsRowsOf(file: string, records: readonly Record<string, string>[]): StatsRow[] {
  return records.map((record, i) => {
    const { source, experiment_name, ...rest } = withoutFormulaQuotes(record);
    if (source === undefined || experiment_name === undefined) {
      throw new UsageError(`${file}:${i + 2}: a stats CSV needs the columns source and experiment_name.`);
    }
    const means: Record<string, number> = {};
    for (const [metric, value] of Object.entries(rest)) {
      if (metric === 'count' || value === '' || value === undefined) continue;
      const number = Number(value);
      if (Number.isFinite(number)) means[metric] = number;
    }
    return { source, experiment_name, count: Number(rest.count ?? 0), means };
  });
}
