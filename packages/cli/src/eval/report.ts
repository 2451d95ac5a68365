import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { Comparison } from './compare.js';
import {
  comparisonCells,
  comparisonHeader,
  comparisonMethod,
  gateHeadline,
  unjudgedSentences,
} from './comparison-table.js';
import { inResultsOrder } from './metric-names.js';
import { type ResultLine, readResults } from './results-file.js';
import { type StatsRow, statsMetrics } from './stats.js';

/**
 * `report.html`: one file that opens from disk with no network. The charts are inline SVG drawn here
 * (a bar per experiment, scores from 0 to 1): a chart library would add its whole build to every report
 * for what is a few rectangles. Each question is a `<details>` block with the experiments side by side.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const COLOURS = ['#2563eb', '#d97706', '#059669', '#dc2626', '#7c3aed', '#0891b2', '#be185d', '#4d7c0f'];

const label = (row: StatsRow) => `${row.experiment_name} (${row.source})`;
const format = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(3));

function chart(metric: string, rows: readonly StatsRow[]): string {
  const barHeight = 18;
  const gap = 6;
  const labelWidth = 270;
  const barWidth = 200;
  const height = rows.length * (barHeight + gap) + 8;
  const bars = rows
    .map((row, i) => {
      const value = row.means[metric];
      const y = 4 + i * (barHeight + gap);
      const width = Math.max(0, Math.min(1, value ?? 0)) * barWidth;
      const name = label(row);
      const shown = name.length > 44 ? `${name.slice(0, 43)}…` : name;
      return `<text x="${labelWidth - 6}" y="${y + 13}" text-anchor="end">${escapeHtml(shown)}</text><rect x="${labelWidth}" y="${y}" width="${barWidth}" height="${barHeight}" fill="#eef2f7"/><rect x="${labelWidth}" y="${y}" width="${width.toFixed(1)}" height="${barHeight}" fill="${COLOURS[i % COLOURS.length]}"><title>${escapeHtml(name)}: ${format(value)}</title></rect><text x="${labelWidth + barWidth + 6}" y="${y + 13}">${format(value)}</text>`;
    })
    .join('');
  return `<figure class="chart"><figcaption>${escapeHtml(metric)}</figcaption><svg role="img" aria-label="${escapeHtml(metric)} by experiment" viewBox="0 0 ${labelWidth + barWidth + 50} ${height}" width="${labelWidth + barWidth + 50}" height="${height}">${bars}</svg></figure>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1f2937}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}table{border-collapse:collapse;font-size:13px}
th,td{border:1px solid #d1d5db;padding:3px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
.charts{display:flex;flex-wrap:wrap;gap:1rem}.chart{margin:0;border:1px solid #e5e7eb;padding:.5rem}
.chart figcaption{font-weight:600;margin-bottom:.25rem}svg text{font-size:11px;fill:#374151}
details{border:1px solid #e5e7eb;margin:.4rem 0;padding:.3rem .6rem}summary{cursor:pointer}
.failed summary{color:#b91c1c}.tag{color:#6b7280}.text{white-space:pre-wrap;background:#f9fafb;padding:.4rem}
ol.chunks li{white-space:pre-wrap;margin-bottom:.4rem}.side{display:grid;gap:1rem}.side section{min-width:0}
.error{color:#b91c1c}h4{margin:.6rem 0 .2rem}.verdict-regressed td{background:#fee2e2}
.verdict-noise td{background:#fef9c3}.headline{font-size:1.05rem;font-weight:600}.comparison th,.comparison td{text-align:left}
.comparison td:nth-child(n+4):not(:last-child){white-space:nowrap}`;

/** One experiment's answer, chunks and scores for a question: a column of the side-by-side view. */
function experimentColumn(line: ResultLine): string {
  const name = `<h3>${escapeHtml(line.experiment_name ?? '')}</h3>`;
  if (line.status !== 'ok')
    return `<section>${name}<p class="error">failed: ${escapeHtml(line.error?.message ?? '')}</p></section>`;
  const chunks = (line.chunks ?? []).map((chunk) => `<li>${escapeHtml(chunk)}</li>`).join('');
  const scores = Object.entries(line.scores ?? {})
    .map(([metric, value]) => `<tr><td>${escapeHtml(metric)}</td><td>${format(value)}</td></tr>`)
    .join('');
  return `<section>${name}<h4>Answer</h4><div class="text">${escapeHtml((line.system_answer ?? '').trim())}</div><h4>Chunks given to the LLM (from the ${escapeHtml(line.chunks_from ?? 'probe')})</h4><ol class="chunks">${chunks}</ol><h4>Scores</h4><table><tbody>${scores}</tbody></table></section>`;
}

/** The comparison with the baseline: what the gate decided, what was not judged, then every metric. */
function comparisonSection(comparison: Comparison): string {
  const { outcome, detail } = gateHeadline(comparison);
  const headline = `${outcome}${detail ? `: ${detail}` : ''}.`;
  const notes = unjudgedSentences(comparison)
    .map((note) => `<li>${escapeHtml(note)}</li>`)
    .join('');
  const header = comparisonHeader(comparison)
    .map((title) => `<th>${escapeHtml(title)}</th>`)
    .join('');
  const rows = comparison.metrics
    .map(
      (row) =>
        `<tr class="verdict-${row.verdict}">${comparisonCells(comparison, row)
          .map((text) => `<td>${escapeHtml(text)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<h2>Compared with the baseline</h2><p class="headline">${escapeHtml(headline)}</p><p>Baseline <code>${escapeHtml(comparison.baseline)}</code>, compared ${escapeHtml(comparisonMethod(comparison))}.</p>${notes ? `<ul>${notes}</ul>` : ''}<table class="comparison"><thead><tr>${header}</tr></thead><tbody>${rows}</tbody></table>`;
}

export interface ReportInput {
  title: string;
  stats: readonly StatsRow[];
  /** The run against its baseline: shown first, the regressions at the top. */
  comparison?: Comparison | undefined;
  /** The results JSONL to read the questions from. */
  results: string;
  /** The lines of this run's mode (a folder can hold both). */
  include: (line: ResultLine) => boolean;
}

export async function writeReport(file: string, input: ReportInput): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  // The charts in the results' column order, not the stats file's alphabetical one.
  const ordered = inResultsOrder(statsMetrics(input.stats));
  await write(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(input.title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(input.title)}</h1>`,
  );
  if (input.comparison) await write(comparisonSection(input.comparison));
  await write('<h2>Experiments</h2><table><thead><tr><th>metric</th>');
  for (const row of input.stats)
    await write(`<th>${escapeHtml(label(row))}<br><span class="tag">${row.count} questions</span></th>`);
  await write('</tr></thead><tbody>');
  for (const metric of ordered) {
    await write(`<tr><td>${escapeHtml(metric)}</td>`);
    for (const row of input.stats) await write(`<td>${format(row.means[metric])}</td>`);
    await write('</tr>');
  }
  await write('</tbody></table><h2>Metrics</h2><div class="charts">');
  for (const metric of ordered) await write(chart(metric, input.stats));
  await write('</div><h2>Questions</h2>');
  // Grouped by question, the experiments side by side: the results file is in completion order, so
  // its lines are gathered first (a question's lines, not the whole evaluation's text, are written at once).
  const byQuestion = new Map<string, ResultLine[]>();
  for await (const line of readResults(input.results)) {
    if (!input.include(line)) continue;
    const key = line.id.split('|')[0] as string;
    const group = byQuestion.get(key) ?? [];
    group.push(line);
    byQuestion.set(key, group);
  }
  const experiments = [...new Set(input.stats.map((row) => row.experiment_name))];
  const rank = (line: ResultLine) => {
    const at = experiments.indexOf(line.experiment_name ?? '');
    return at < 0 ? experiments.length : at;
  };
  for (const group of byQuestion.values()) {
    group.sort((a, b) => rank(a) - rank(b));
    const first = group[0] as ResultLine;
    const headline = group
      .map((line) =>
        line.status !== 'ok'
          ? `${escapeHtml(line.experiment_name ?? '')}: failed`
          : `${escapeHtml(line.experiment_name ?? '')}: recall ${format(line.scores?.context_recall)} · rouge-L F1 ${format(line.scores?.rouge_l_f1)}`,
      )
      .join(' | ');
    await write(
      `<details class="${group.some((line) => line.status !== 'ok') ? 'failed' : 'ok'}"><summary>${escapeHtml(first.question)} <span class="tag">(${escapeHtml(first.source ?? '')}) — ${headline}</span></summary>`,
    );
    await write(`<h3>Expected</h3><div class="text">${escapeHtml(first.gt_answer ?? '')}</div>`);
    await write(`<div class="side" style="grid-template-columns:repeat(${group.length},minmax(0,1fr))">`);
    for (const line of group) await write(experimentColumn(line));
    await write('</div></details>');
  }
  await write('</body></html>\n');
  out.end();
  await finished(out);
}
