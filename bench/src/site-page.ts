import { summarize } from '@dataworkz/measure';
import type { Measurement } from './measurement.js';
import { type BenchRun, planLine } from './results.js';
import { renderGoalComparison } from './table.js';

/**
 * The site's benchmark page (apps/docs/explanation/benchmarks.md) holds one block the bench writes,
 * between these two lines; the prose around it, which says what the figures mean and how they are
 * taken, is written by hand and quotes no figure of a run.
 */
export const SITE_BLOCK_START =
  '<!-- bench:results (written by `pnpm bench` from the run that wrote bench/results/latest.md; do not edit by hand) -->';
export const SITE_BLOCK_END = '<!-- /bench:results -->';

/** Where the bench block lies in `page`; throws when the page has none. */
export function siteBlockOf(page: string): { start: number; end: number } {
  const start = page.indexOf(SITE_BLOCK_START);
  const end = page.indexOf(SITE_BLOCK_END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`the page has no block between "${SITE_BLOCK_START}" and "${SITE_BLOCK_END}"`);
  }
  return { start, end };
}

/** `page` with its bench block replaced by the figures of `run`. */
export function fillSitePage(page: string, run: BenchRun): string {
  const { start, end } = siteBlockOf(page);
  return `${page.slice(0, start)}${SITE_BLOCK_START}\n\n${renderSiteBlock(run)}\n${page.slice(end)}`;
}

/**
 * The block: where and when the run was taken, charts of the call and stream ratios, and every goal
 * by runtime (the table that opens the results file; the full tables stay there).
 */
function renderSiteBlock(run: BenchRun): string {
  const runtimes = run.runs
    .map((r) => `${r.label.replace(/^Node v/, 'Node ')} (${r.runtime.origin})`)
    .join(', ');
  const charts = [
    ratioChart(run, {
      section: '1. unary overhead',
      metric: 'time per call, ratio per round',
      title: 'Time per call, @dataworkz/client ÷ baseline (lower is better)',
      labelBy: 'baseline',
    }),
    ratioChart(run, {
      section: '2. concurrency',
      metric: 'calls/s, ratio per round',
      title: 'Calls/s at 100 in flight, @dataworkz/client ÷ baseline (higher is better)',
      labelBy: 'baseline',
    }),
    ratioChart(run, {
      section: '3. streaming',
      metric: 'events/s, ratio per round',
      title: 'Stream events/s ÷ the SDK transport (higher is better)',
      labelBy: 'subject',
    }),
  ].filter((chart): chart is string => chart !== undefined);
  return [
    '| machine | date | runtimes |',
    '| ------- | ---- | -------- |',
    `| ${run.machine.replace(/^Machine: /, '')} | ${run.date} | ${runtimes} |`,
    '',
    planLine(run),
    ...run.notes.map((note) => `\n${note}`),
    '',
    ...charts,
    '### Goals by runtime',
    '',
    renderGoalComparison(run.runs),
  ].join('\n');
}

interface ChartRows {
  readonly section: string;
  /** The end of the rows' metric (the stream's has its event count in front). */
  readonly metric: string;
  readonly title: string;
  /**
   * What tells the bars apart: the baseline (the client against each of its baselines), or the subject
   * (every reader against the one baseline, the SDK transport).
   */
  readonly labelBy: 'baseline' | 'subject';
}

/**
 * A horizontal bar chart (Mermaid's xychart) of the median per-round ratios of a section's rows, one
 * bar per ratio and runtime; undefined when the run has no such rows.
 */
function ratioChart(run: BenchRun, rows: ChartRows): string | undefined {
  const bars: { label: string; value: number }[] = [];
  for (const runtimeRun of run.runs) {
    const major = runtimeRun.runtime.version.replace(/^v/, '').split('.')[0];
    for (const m of runtimeRun.measurements) {
      if (!isChartRow(m, rows)) continue;
      const [subject, baseline] = m.subject.split(' ÷ ');
      const label = (rows.labelBy === 'baseline' ? baseline : subject) ?? m.subject;
      bars.push({ label: `${label}, ${major}`, value: summarize(m.samples).median });
    }
  }
  if (bars.length === 0) return undefined;
  // Baselines together, each runtime beside the other.
  bars.sort((a, b) => a.label.localeCompare(b.label));
  const values = bars.map((bar) => bar.value);
  const low = Math.max(0, Math.floor((Math.min(...values, 1) - 0.1) * 10) / 10);
  const high = Math.ceil((Math.max(...values, 1) + 0.05) * 10) / 10;
  return [
    '```mermaid',
    'xychart-beta horizontal',
    `    title "${rows.title}"`,
    `    x-axis [${bars.map((bar) => JSON.stringify(bar.label)).join(', ')}]`,
    `    y-axis "ratio" ${low} --> ${high}`,
    `    bar [${values.map((value) => value.toFixed(3)).join(', ')}]`,
    '```',
    '',
  ].join('\n');
}

/**
 * A ratio row of the chart, wall time only: with bars labelled by baseline, the client's rows (not the
 * baselines' ratios to each other).
 */
function isChartRow(m: Measurement, rows: ChartRows): boolean {
  return (
    m.section === rows.section &&
    (m.metric === rows.metric || m.metric.endsWith(`: ${rows.metric}`)) &&
    m.unit === '×' &&
    (rows.labelBy === 'subject' || m.subject.startsWith('@dataworkz/')) &&
    m.samples.length > 0
  );
}
