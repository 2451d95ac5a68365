import { medianInterval, summarize } from '@dataworkz/measure';
import { formatNumber, formatWithUnit } from './format.js';
import type { Goal, Measurement } from './measurement.js';

export interface Report {
  readonly machine: string;
  readonly measurements: readonly Measurement[];
  /** Lines printed under the table (run settings, failures). */
  readonly notes?: readonly string[];
}

const header = ['section', 'metric', 'subject', 'median', 'min', 'max', 'IQR', 'ratio to baseline', 'goal'];
/**
 * Rows with at least this many rounds show their interquartile range: the spread of the middle half,
 * which an outlier round does not move (with fewer rounds, min and max say as much).
 */
const MIN_SAMPLES_FOR_IQR = 8;

/** Renders the results as one markdown table under the machine line. */
export function renderReport(report: Report): string {
  const body = grouped(report.measurements).map((m) => cells(m, report.measurements).map(escapePipes));
  // Columns padded to one width, as a Markdown formatter leaves them: the file stays as written.
  const widths = header.map((title, i) => Math.max(width(title), ...body.map((r) => width(r[i] ?? ''))));
  const lines = [
    report.machine,
    '',
    row(header, widths),
    row(
      widths.map((w) => '-'.repeat(w)),
      widths,
    ),
  ];
  for (const cells of body) lines.push(row(cells, widths));
  if (report.notes && report.notes.length > 0) lines.push('', ...report.notes);
  return `${lines.join('\n')}\n`;
}

/** Rows of one section and metric together, in the order each first appears. */
function grouped(measurements: readonly Measurement[]): Measurement[] {
  const groups = new Map<string, Measurement[]>();
  for (const m of measurements) {
    const key = `${m.section}\u0000${m.metric}`;
    const group = groups.get(key);
    if (group) group.push(m);
    else groups.set(key, [m]);
  }
  return [...groups.values()].flat();
}

function cells(m: Measurement, all: readonly Measurement[]): string[] {
  const { median, min, max } = summarize(m.samples);
  const base = m.baseline === undefined ? undefined : findBaseline(m, all);
  const baseMedian = base ? summarize(base.samples).median : undefined;
  // A ratio to a baseline at or below zero (memory that shrank, say) says nothing.
  const ratio = baseMedian === undefined || baseMedian <= 0 ? undefined : median / baseMedian;
  let ratioCell = '';
  if (isBaselineOfAnother(m, all)) ratioCell = 'baseline';
  else if (base === undefined && m.baseline !== undefined) ratioCell = `no ${m.baseline} figure`;
  else if (m.baseline !== undefined) ratioCell = ratio === undefined ? 'n/a' : `${ratio.toFixed(2)}×`;
  const goals = (m.goals ?? []).map((goal) => goalCell(goal, m, median, baseMedian)).join('; ');
  return [
    m.section,
    m.metric,
    m.subject,
    formatWithUnit(median, m.unit),
    formatSample(min, m.unit),
    formatSample(max, m.unit),
    iqr(m.samples, m.unit) ?? '',
    ratioCell,
    goals,
  ];
}

function formatSample(value: number, unit: string): string {
  return unit === '×' ? value.toFixed(3) : formatNumber(value);
}

/** `p25–p75` of a row with enough rounds for quartiles to mean something. */
function iqr(samples: readonly number[], unit: string): string | undefined {
  if (samples.length < MIN_SAMPLES_FOR_IQR) return undefined;
  const { p25, p75 } = summarize(samples);
  return `${formatSample(p25, unit)}–${formatSample(p75, unit)}`;
}

function findBaseline(m: Measurement, all: readonly Measurement[]): Measurement | undefined {
  return all.find((o) => o.section === m.section && o.metric === m.metric && o.subject === m.baseline);
}

function isBaselineOfAnother(m: Measurement, all: readonly Measurement[]): boolean {
  return all.some(
    (o) => o !== m && o.section === m.section && o.metric === m.metric && o.baseline === m.subject,
  );
}

function goalCell(goal: Goal, m: Measurement, median: number, baseMedian: number | undefined): string {
  let label = goalLabel(goal, m.unit);
  if (goal.kind === 'delta-max' && baseMedian !== undefined) {
    const delta = median - baseMedian;
    label += ` (${delta >= 0 ? '+' : ''}${formatNumber(delta)} ${m.unit})`;
  }
  return `${label}: ${outcome(goal, m.samples, median, baseMedian)}`;
}

/**
 * `met` or `missed` by the median; for a goal on the row's own figure with enough rounds, `not
 * resolved` is added when the median's 95 % confidence interval reaches across the goal: at this
 * spread the run cannot tell whether it is met.
 */
function outcome(
  goal: Goal,
  samples: readonly number[],
  median: number,
  baseMedian: number | undefined,
): string {
  const met = goalMet(goal, median, baseMedian);
  if (met === undefined) return 'no baseline';
  const interval = goal.kind === 'max' || goal.kind === 'min' ? intervalOf(samples) : undefined;
  const spans = interval !== undefined && interval.low <= goal.value && goal.value <= interval.high;
  return spans ? `${verdict(met)}, not resolved` : verdict(met);
}

function intervalOf(samples: readonly number[]): { low: number; high: number } | undefined {
  return samples.length < MIN_SAMPLES_FOR_IQR ? undefined : medianInterval(samples);
}

function goalLabel(goal: Goal, unit: string): string {
  switch (goal.kind) {
    case 'max':
      return unit === '×' ? `≤ ${goal.value}×` : `≤ ${formatNumber(goal.value)} ${unit}`;
    case 'min':
      return unit === '×' ? `≥ ${goal.value}×` : `≥ ${formatNumber(goal.value)} ${unit}`;
    case 'ratio-max':
      return `ratio ≤ ${goal.value}`;
    case 'ratio-min':
      return `ratio ≥ ${goal.value}`;
    case 'delta-max':
      return `within ${formatNumber(goal.value)} ${unit}`;
  }
}

/** Whether the row meets the goal; undefined when the goal needs a baseline the run lacks. */
function goalMet(goal: Goal, median: number, baseMedian: number | undefined): boolean | undefined {
  switch (goal.kind) {
    case 'max':
      return median <= goal.value;
    case 'min':
      return median >= goal.value;
    case 'ratio-max':
    case 'ratio-min': {
      if (baseMedian === undefined || baseMedian === 0) return undefined;
      const ratio = median / baseMedian;
      return goal.kind === 'ratio-max' ? ratio <= goal.value : ratio >= goal.value;
    }
    case 'delta-max':
      return baseMedian === undefined ? undefined : median - baseMedian <= goal.value;
  }
}

function verdict(met: boolean): string {
  return met ? 'met' : 'missed';
}

/**
 * One table of the rows that have a goal, side by side for each runtime: the median, the ratio to the
 * row's baseline, the interquartile range where there are enough rounds, and whether the goal is met.
 * A row whose goal differs between runtimes names the goal in each runtime's cell.
 */
export function renderGoalComparison(
  runs: readonly { label: string; measurements: readonly Measurement[] }[],
): string {
  const keyOf = (m: Measurement) => `${m.section}\u0000${m.metric}\u0000${m.subject}`;
  const rows = new Map<string, Measurement[]>();
  for (const run of runs) {
    for (const m of grouped(run.measurements)) {
      if (!m.goals?.length) continue;
      const seen = rows.get(keyOf(m));
      if (seen) seen.push(m);
      else rows.set(keyOf(m), [m]);
    }
  }
  const titles = ['section', 'metric', 'subject', 'goal', ...runs.map((run) => run.label)];
  const body = [...rows.values()].map((versions) => {
    const m = versions[0] as Measurement;
    const labelsOf = (o: Measurement) => (o.goals ?? []).map((goal) => goalLabel(goal, o.unit)).join('; ');
    const sameGoals = versions.every((o) => labelsOf(o) === labelsOf(m));
    const cellsPerRun = runs.map((run) => {
      const own = run.measurements.find((o) => keyOf(o) === keyOf(m));
      if (own === undefined) return 'not measured';
      const { median } = summarize(own.samples);
      const base = own.baseline === undefined ? undefined : findBaseline(own, run.measurements);
      const baseMedian = base ? summarize(base.samples).median : undefined;
      const goals = own.goals ?? [];
      // The ratio or difference to the baseline only where a goal is set on it.
      const kinds = new Set(goals.map((goal) => goal.kind));
      let relative: string | undefined;
      if ((kinds.has('ratio-max') || kinds.has('ratio-min')) && baseMedian !== undefined && baseMedian > 0) {
        relative = `${(median / baseMedian).toFixed(2)}×`;
      } else if (kinds.has('delta-max') && baseMedian !== undefined) {
        const delta = median - baseMedian;
        relative = `${delta >= 0 ? '+' : ''}${formatNumber(delta)} ${own.unit}`;
      }
      const spread = iqr(own.samples, own.unit);
      const interval = intervalOf(own.samples);
      const shown = goals
        .map((goal) => {
          const result = outcome(goal, own.samples, median, baseMedian);
          return sameGoals ? result : `${goalLabel(goal, own.unit)}: ${result}`;
        })
        .join('; ');
      const parts = [
        formatWithUnit(median, own.unit),
        relative,
        spread && `IQR ${spread}`,
        interval &&
          `95 % CI ${formatSample(interval.low, own.unit)}–${formatSample(interval.high, own.unit)}`,
        shown,
      ];
      return parts.filter(Boolean).join(', ');
    });
    const goals = sameGoals ? labelsOf(m) : 'by runtime';
    return [m.section, m.metric, m.subject, goals, ...cellsPerRun].map(escapePipes);
  });
  const widths = titles.map((title, i) => Math.max(width(title), ...body.map((r) => width(r[i] ?? ''))));
  const lines = [
    row(titles, widths),
    row(
      widths.map((w) => '-'.repeat(w)),
      widths,
    ),
    ...body.map((cells) => row(cells, widths)),
  ];
  return `${lines.join('\n')}\n`;
}

function escapePipes(cell: string): string {
  return cell.replaceAll('|', '\\|');
}

function width(text: string): number {
  return [...text].length;
}

function row(values: readonly string[], widths: readonly number[]): string {
  return `| ${values.map((v, i) => v + ' '.repeat((widths[i] ?? 0) - width(v))).join(' | ')} |`;
}
