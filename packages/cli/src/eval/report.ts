import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { METRIC_NAMES } from './metric-names.js';
import { readResults } from './results-file.js';
import { type StatsRow, statsMetrics } from './stats.js';

/**
 * `report.html`: one file that opens from disk with no network. The charts are inline SVG drawn here
 * (a bar per experiment, scores from 0 to 1): a chart library would add its whole build to every report
 * for what is a few rectangles. The questions are streamed from the results JSONL into `<details>`
 * blocks, so a large evaluation never sits in memory.
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
ol.chunks li{white-space:pre-wrap;margin-bottom:.4rem}`;

export interface ReportInput {
  title: string;
  stats: readonly StatsRow[];
  /** The results JSONL to read the questions from. */
  results: string;
}

export async function writeReport(file: string, input: ReportInput): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const metrics = statsMetrics(input.stats);
  // The charts in the results' column order, not the stats file's alphabetical one.
  const ordered = [
    ...METRIC_NAMES.filter((name) => metrics.includes(name)),
    ...metrics.filter((name) => !(METRIC_NAMES as readonly string[]).includes(name)),
  ];
  await write(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(input.title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(input.title)}</h1>`,
  );
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
  for await (const line of readResults(input.results)) {
    const failed = line.status !== 'ok';
    const scores = line.scores ?? {};
    const headline = failed
      ? `failed: ${escapeHtml(line.error?.message ?? '')}`
      : `recall ${format(scores.context_recall)} · precision ${format(scores.context_precision)} · rouge-L F1 ${format(scores.rouge_l_f1)}`;
    await write(
      `<details class="${failed ? 'failed' : 'ok'}"><summary>${escapeHtml(line.question)} <span class="tag">— ${escapeHtml(line.experiment_name ?? '')} (${escapeHtml(line.source ?? '')}) — ${headline}</span></summary>`,
    );
    if (!failed) {
      await write(
        `<h3>Answer</h3><div class="text">${escapeHtml((line.system_answer ?? '').trim())}</div><h3>Expected</h3><div class="text">${escapeHtml(line.gt_answer ?? '')}</div>`,
      );
      await write(
        `<h3>Chunks given to the LLM (from the ${escapeHtml(line.chunks_from ?? 'probe')})</h3><ol class="chunks">`,
      );
      for (const chunk of line.chunks ?? []) await write(`<li>${escapeHtml(chunk)}</li>`);
      await write('</ol><h3>Scores</h3><table><tbody>');
      for (const [metric, value] of Object.entries(scores))
        await write(`<tr><td>${escapeHtml(metric)}</td><td>${format(value)}</td></tr>`);
      await write('</tbody></table>');
    }
    await write('</details>');
  }
  await write('</body></html>\n');
  out.end();
  await finished(out);
}
