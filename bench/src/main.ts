/**
 * `pnpm bench [--quick] [--only a,b] [--node machine,24] [--out file] [--page file]`: every section, then
 * the tables, and after a full run the site's benchmark page from the same figures.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { firstLines } from './errors.js';
import { machineLine } from './machine.js';
import type { Measurement } from './measurement.js';
import { runSection, type SectionName, sectionNames, stopSharedServers } from './orchestrate.js';
import { resultsDir, sitePagePath } from './paths.js';
import { fullPlan, quickPlan } from './plan.js';
import { type BenchRun, renderResults } from './results.js';
import { resolveRuntimes } from './runtimes.js';
import { fillSitePage, siteBlockOf } from './site-page.js';

const options = {
  quick: { type: 'boolean', default: false },
  only: { type: 'string' },
  // Users run Node 22 and 24; the figures differ between versions (fetch above all), so each
  // runtime gets its own table.
  node: { type: 'string', default: 'machine,24' },
  out: { type: 'string' },
  page: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const usage = `Usage: pnpm bench [--quick] [--only section,...] [--node machine,24] [--out file] [--page file]

  --quick   fewer rounds and events (a first look, not figures to commit)
  --only    run these sections only: ${sectionNames.join(', ')}
  --node    the runtimes to measure on: machine (this Node), 22, 24 (default: machine,24)
  --out     where to write the tables (default: bench/results/latest.md after a full run of every section)
  --page    where to write the site's benchmark page, its bench block filled from this run (default:
            apps/docs/explanation/benchmarks.md after a full run of every section)
`;

const { values } = (() => {
  try {
    return parseArgs({ options });
  } catch (error) {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    process.exit(2);
  }
})();
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}

const plan = values.quick ? quickPlan : fullPlan;
const selected = values.only === undefined ? [...sectionNames] : parseSections(values.only);
// The committed figures come from full runs of every section; other runs write only where asked.
const committedRun = !values.quick && values.only === undefined;
const outPath = values.out ?? (committedRun ? join(resultsDir, 'latest.md') : undefined);
// The site's page is written from the same run as the results file, never from another.
const pagePath = values.page ?? (committedRun && values.out === undefined ? sitePagePath : undefined);
// Read before the run, so a page without its bench block stops the run before it starts, not after.
const pageTemplate = pagePath === undefined ? undefined : readFileSync(sitePagePath, 'utf8');
if (pageTemplate !== undefined) siteBlockOf(pageTemplate);

const { runtimes, notes: runtimeNotes } = resolveRuntimes(values.node.split(',').map((s) => s.trim()));
for (const note of runtimeNotes) process.stderr.write(`bench: ${note}\n`);
if (runtimes.length === 0) throw new Error(`no runtime to measure on (--node ${values.node})`);

const runs = runtimes.map((runtime) => ({
  runtime,
  measurements: [] as Measurement[],
  notes: [] as string[],
}));
const failures: string[] = [];
/** One section on one runtime, its figures added to that runtime's tables; a failure is noted, not thrown. */
async function measure(name: SectionName, run: (typeof runs)[number], index: number): Promise<void> {
  const on = `${name} on Node ${run.runtime.version}`;
  const started = performance.now();
  process.stderr.write(`bench: ${on}…\n`);
  try {
    // Bundle sizes do not depend on the runtime: measured once, shown in the first table.
    const result = await runSection(name, plan, run.runtime, { sizes: index === 0 });
    run.measurements.push(...result.measurements);
    run.notes.push(...result.notes);
    process.stderr.write(`bench: ${on} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    failures.push(`Section ${on} failed: ${firstLines(error, 1)}`);
    process.stderr.write(`bench: ${on} failed: ${reason}\n`);
  }
}
if (plan.runtimesSideBySide) {
  // Each runtime goes through the sections in turn, beside the others (see `Plan.runtimesSideBySide`).
  await Promise.all(
    runs.map(async (run, index) => {
      for (const name of selected) await measure(name, run, index);
    }),
  );
} else {
  // Each section runs on every runtime before the next section starts, so drift on a busy machine
  // falls on all of them alike.
  for (const name of selected) {
    for (const [index, run] of runs.entries()) await measure(name, run, index);
  }
}
await stopSharedServers();

const run: BenchRun = {
  machine: machineLine(),
  date: new Date().toISOString().slice(0, 10),
  plan,
  runs: runs.map((r) => ({ ...r, label: `Node ${r.runtime.version}` })),
  notes: [...runtimeNotes, ...failures],
  sizesMeasured: selected.includes('size'),
};
const report = renderResults(run);
process.stdout.write(`\n${report}`);
if (outPath) {
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, `# Benchmark results\n\n${report}`);
  process.stderr.write(`bench: wrote ${outPath}\n`);
}
if (pagePath !== undefined && pageTemplate !== undefined) {
  // The committed page is the template: its prose stays, its bench block takes this run's figures.
  const page = fillSitePage(pageTemplate, run);
  mkdirSync(dirname(pagePath), { recursive: true });
  writeFileSync(pagePath, page);
  process.stderr.write(`bench: wrote ${pagePath}\n`);
}
process.exitCode = failures.length > 0 ? 1 : 0;

function parseSections(list: string): SectionName[] {
  const names = list.split(',').map((s) => s.trim());
  for (const name of names) {
    if (!(sectionNames as readonly string[]).includes(name)) {
      process.stderr.write(`bench: unknown section ${name}\n\n${usage}`);
      process.exit(2);
    }
  }
  return names as SectionName[];
}
