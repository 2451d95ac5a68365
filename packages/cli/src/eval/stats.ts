import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../exit-codes.js';
import type { Scores } from './metric-names.js';

/** The mean of each metric over one source and experiment, as the vendor's stats file has it. */
export interface StatsRow {
  source: string;
  experiment_name: string;
  /** Questions scored. */
  count: number;
  means: Record<string, number>;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Running sums per source and experiment: the stats without holding the rows. */
export class StatsAccumulator {
  private readonly groups = new Map<
    string,
    { source: string; experiment: string; count: number; sums: Map<string, { sum: number; n: number }> }
  >();

  add(source: string, experiment: string, scores: Scores): void {
    const key = JSON.stringify([source, experiment]);
    let group = this.groups.get(key);
    if (!group) {
      group = { source, experiment, count: 0, sums: new Map() };
      this.groups.set(key, group);
    }
    group.count += 1;
    for (const [metric, value] of Object.entries(scores)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      const sum = group.sums.get(metric) ?? { sum: 0, n: 0 };
      sum.sum += value;
      sum.n += 1;
      group.sums.set(metric, sum);
    }
  }

  rows(): StatsRow[] {
    return (
      [...this.groups.values()]
        // pandas' groupby order: by code point, not by locale.
        .sort((a, b) => byCodePoint(a.source, b.source) || byCodePoint(a.experiment, b.experiment))
        .map((group) => ({
          source: group.source,
          experiment_name: group.experiment,
          count: group.count,
          means: Object.fromEntries([...group.sums].map(([metric, { sum, n }]) => [metric, sum / n])),
        }))
    );
  }
}

/** The stats columns after `source` and `experiment_name`: sorted, as pandas' `setdiff1d` leaves them. */
export function statsMetrics(rows: readonly StatsRow[]): string[] {
  return [...new Set(rows.flatMap((row) => Object.keys(row.means)))].sort();
}

/** A metric of an experiment that fell more than the allowed drop below its baseline. */
export interface Regression {
  source: string;
  experiment_name: string;
  metric: string;
  baseline: number;
  current: number;
}

/** Reads a stats CSV (ours or the vendor's): its rows by source and experiment. */
export async function readStats(file: string): Promise<StatsRow[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new UsageError(`No baseline file ${file}.`);
  }
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, bom: true, skip_empty_lines: true });
  } catch (error) {
    throw new UsageError(`${file} is not a stats CSV: ${(error as Error).message}`);
  }
  return records.map((record, i) => {
    // Our own stats.csv writes a text cell that looks like a formula with a leading `'`.
    const { source, experiment_name, ...rest } = Object.fromEntries(
      Object.entries(record).map(([column, value]) => [
        column,
        /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value,
      ]),
    ) as Record<string, string>;
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

/** Every metric of every experiment in both that is more than `maxDrop` below the baseline. */
export function regressions(
  baseline: readonly StatsRow[],
  current: readonly StatsRow[],
  maxDrop: number,
): Regression[] {
  const found: Regression[] = [];
  const before = new Map(baseline.map((row) => [JSON.stringify([row.source, row.experiment_name]), row]));
  for (const row of current) {
    const base = before.get(JSON.stringify([row.source, row.experiment_name]));
    if (!base) continue;
    for (const [metric, value] of Object.entries(row.means)) {
      const was = base.means[metric];
      // A hair of tolerance: a rerun's floating-point sums must not fail the gate.
      if (was !== undefined && was - value > maxDrop + 1e-9) {
        found.push({
          source: row.source,
          experiment_name: row.experiment_name,
          metric,
          baseline: was,
          current: value,
        });
      }
    }
  }
  return found;
}
