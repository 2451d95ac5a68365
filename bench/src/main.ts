/** `pnpm bench [--quick] [--only a,b] [--out file]`: every section, then the table. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { firstLines } from './errors.js';
import { machineLine } from './machine.js';
import type { Measurement } from './measurement.js';
import { runSection, type SectionName, sectionNames } from './orchestrate.js';
import { resultsDir } from './paths.js';
import { fullPlan, quickPlan } from './plan.js';
import { renderReport } from './table.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string' },
  },
});

const plan = values.quick ? quickPlan : fullPlan;
const selected = values.only === undefined ? [...sectionNames] : parseSections(values.only);
// The committed figures come from full runs of every section; other runs write only where asked.
const outPath =
  values.out ?? (!values.quick && values.only === undefined ? join(resultsDir, 'latest.md') : undefined);

const measurements: Measurement[] = [];
const notes: string[] = [];
const failures: string[] = [];
for (const name of selected) {
  const started = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    const result = await runSection(name, plan);
    measurements.push(...result.measurements);
    notes.push(...result.notes);
    process.stderr.write(`bench: ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    failures.push(`Section ${name} failed: ${firstLines(error, 1)}`);
    process.stderr.write(`bench: ${name} failed: ${reason}\n`);
  }
}

const report = renderReport({
  machine: machineLine(),
  measurements,
  notes: [
    `Plan: ${plan.name}; ${plan.rounds} round(s) per figure (median, min, max over rounds); ${new Date().toISOString().slice(0, 10)}.`,
    ...notes,
    ...failures,
  ],
});
process.stdout.write(`\n${report}`);
if (outPath) {
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, `# Benchmark results\n\n${report}`);
  process.stderr.write(`bench: wrote ${outPath}\n`);
}
process.exitCode = failures.length > 0 ? 1 : 0;

function parseSections(list: string): SectionName[] {
  const names = list.split(',').map((s) => s.trim());
  for (const name of names) {
    if (!(sectionNames as readonly string[]).includes(name)) {
      throw new Error(`unknown section ${name}; choose from ${sectionNames.join(', ')}`);
    }
  }
  return names as SectionName[];
}
