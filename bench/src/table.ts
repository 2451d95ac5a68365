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
  const verdict = (met: boolean) => (met ? 'met' : 'missed');
  switch (goal.kind) {
    case 'max':
      return `≤ ${formatNumber(goal.value)} ${unit}: ${verdict(median <= goal.value)}`;
    case 'min':
      return `≥ ${formatNumber(goal.value)} ${unit}: ${verdict(median >= goal.value)}`;
    case 'ratio-max':
    case 'ratio-min': {
      const sign = goal.kind === 'ratio-max' ? '≤' : '≥';
      if (baseMedian === undefined || baseMedian === 0) return `ratio ${sign} ${goal.value}: no baseline`;
      const ratio = median / baseMedian;
      return `ratio ${sign} ${goal.value}: ${verdict(goal.kind === 'ratio-max' ? ratio <= goal.value : ratio >= goal.value)}`;
    }
    case 'delta-max': {
      if (baseMedian === undefined) return `within ${formatNumber(goal.value)} ${unit}: no baseline`;
      const delta = median - baseMedian;
      const shown = `${delta >= 0 ? '+' : ''}${formatNumber(delta)} ${unit}`;
      return `within ${formatNumber(goal.value)} ${unit} (${shown}): ${verdict(delta <= goal.value)}`;
    }
  }
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
