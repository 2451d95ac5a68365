import { writeFile } from 'node:fs/promises';
import type { Comparison } from './compare.js';
import {
  comparisonCells,
  comparisonHeader,
  comparisonMethod,
  gateHeadline,
  score,
  unjudgedSentences,
} from './comparison-table.js';
import { inResultsOrder } from './metric-names.js';
import { type StatsRow, statsMetrics } from './stats.js';

/**
 * `summary.md`: the run and its comparison in GitHub-flavoured Markdown, for `$GITHUB_STEP_SUMMARY`
 * or a pull-request comment. The regressions and the drops within noise are in the open; the metrics
 * within the allowed drop, and the means, are folded.
 */

/** Text from the run (system names, questions) as a table cell: no markup, no HTML, one line. */
const cell = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~#!]/g, (char) => `\\${char}`);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The means of a run as a Markdown table, the metrics in the results' order. */
function statsTable(stats: readonly StatsRow[]): string {
  const ordered = inResultsOrder(statsMetrics(stats));
  return table(
    ['metric', ...stats.map((row) => `${cell(row.experiment_name)} (${cell(row.source)}), ${row.count} q.`)],
    ordered.map((metric) => [
      metric,
      ...stats.map((row) => (row.means[metric] === undefined ? '–' : score(row.means[metric]))),
    ]),
  );
}

function summaryMarkdown(title: string, stats: readonly StatsRow[], comparison?: Comparison): string {
  const parts = [`## ${cell(title)}`];
  if (!comparison) {
    parts.push(statsTable(stats));
    return `${parts.join('\n\n')}\n`;
  }
  const headline = gateHeadline(comparison);
  parts.push(`**${headline.outcome}**${headline.detail ? `: ${cell(headline.detail)}.` : '.'}`);
  parts.push(
    `Baseline \`${comparison.baseline.replace(/`/g, "'")}\`, compared ${comparisonMethod(comparison)}.`,
  );
  const notes = unjudgedSentences(comparison).map(cell);
  if (notes.length > 0) parts.push(notes.map((note) => `- ${note}`).join('\n'));
  const header = comparisonHeader(comparison);
  const rows = (verdicts: readonly string[]) =>
    comparison.metrics
      .filter((row) => verdicts.includes(row.verdict))
      .map((row) =>
        comparisonCells(comparison, row).map((text, i) => {
          const column = header[i];
          if (column === 'verdict') return text === 'ok' ? text : `**${text}**`;
          if (column === 'metric') return `\`${text}\``;
          // The numbers and intervals need no escaping; the names and questions come from the run.
          return column === 'experiment' || column === 'source' || column === 'dropped most'
            ? cell(text)
            : text;
        }),
      );
  const flagged = rows(['regressed', 'noise']);
  if (flagged.length > 0) parts.push(table(header, flagged));
  const ok = rows(['ok']);
  if (ok.length > 0)
    parts.push(
      `<details><summary>${ok.length} metric${ok.length === 1 ? '' : 's'} within the allowed drop</summary>\n\n${table(header, ok)}\n\n</details>`,
    );
  parts.push(`<details><summary>The means of this run</summary>\n\n${statsTable(stats)}\n\n</details>`);
  return `${parts.join('\n\n')}\n`;
}

export async function writeSummary(
  file: string,
  title: string,
  stats: readonly StatsRow[],
  comparison?: Comparison,
): Promise<void> {
  await writeFile(file, summaryMarkdown(title, stats, comparison));
}
