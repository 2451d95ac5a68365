import { formatNumber } from './format.js';
import type { Goal, Measurement } from './measurement.js';
import { summarize } from './stats.js';

export interface Report {
  readonly machine: string;
  readonly measurements: readonly Measurement[];
  /** Lines printed under the table (run settings, failures). */
  readonly notes?: readonly string[];
}

const header = ['section', 'metric', 'subject', 'median', 'min', 'max', 'ratio to baseline', 'goal'];

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
  const goals = (m.goals ?? []).map((goal) => goalCell(goal, m.unit, median, baseMedian)).join('; ');
  return [
    m.section,
    m.metric,
    m.subject,
    `${formatNumber(median)} ${m.unit}`,
    formatNumber(min),
    formatNumber(max),
    ratioCell,
    goals,
  ];
}

function findBaseline(m: Measurement, all: readonly Measurement[]): Measurement | undefined {
  return all.find((o) => o.section === m.section && o.metric === m.metric && o.subject === m.baseline);
}

function isBaselineOfAnother(m: Measurement, all: readonly Measurement[]): boolean {
  return all.some(
    (o) => o !== m && o.section === m.section && o.metric === m.metric && o.baseline === m.subject,
  );
}

function goalCell(goal: Goal, unit: string, median: number, baseMedian: number | undefined): string {
  const met = goalMet(goal, median, baseMedian);
  let label = goalLabel(goal, unit);
  if (goal.kind === 'delta-max' && baseMedian !== undefined) {
    const delta = median - baseMedian;
    label += ` (${delta >= 0 ? '+' : ''}${formatNumber(delta)} ${unit})`;
  }
  return `${label}: ${met === undefined ? 'no baseline' : verdict(met)}`;
}

function goalLabel(goal: Goal, unit: string): string {
  switch (goal.kind) {
    case 'max':
      return `≤ ${formatNumber(goal.value)} ${unit}`;
    case 'min':
      return `≥ ${formatNumber(goal.value)} ${unit}`;
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
 * row's baseline and whether the goal is met.
 */
export function renderGoalComparison(
  runs: readonly { label: string; measurements: readonly Measurement[] }[],
): string {
  const keyOf = (m: Measurement) => `${m.section}\u0000${m.metric}\u0000${m.subject}`;
  const rows = new Map<string, Measurement>();
  for (const run of runs) {
    for (const m of grouped(run.measurements))
      if (m.goals?.length && !rows.has(keyOf(m))) rows.set(keyOf(m), m);
  }
  const titles = ['section', 'metric', 'subject', 'goal', ...runs.map((run) => run.label)];
  const body = [...rows.values()].map((m) => {
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
      const verdicts = goals.map((goal) => goalMet(goal, median, baseMedian));
      const shown = verdicts.map((met) => (met === undefined ? 'no baseline' : verdict(met))).join('; ');
      return [`${formatNumber(median)} ${own.unit}`, relative, shown].filter(Boolean).join(', ');
    });
    const goals = (m.goals ?? []).map((goal) => goalLabel(goal, m.unit)).join('; ');
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
