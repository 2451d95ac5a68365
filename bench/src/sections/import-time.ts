import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { firstLines } from '../errors.js';
import type { Measurement, SectionResult } from '../measurement.js';
import type { MeasuredPackage } from '../packages.js';

const run = promisify(execFile);
const section = '6. package size and import time';
const metric = 'cold import';

/** `import()` of each package timed inside a fresh Node process, alternating with its baseline library. */
export async function measureImportTimes(
  packages: readonly MeasuredPackage[],
  runs: number,
  execPath: string,
): Promise<SectionResult> {
  const out: Measurement[] = [];
  const notes: string[] = [];
  for (const pkg of packages) {
    const own: number[] = [];
    const baseline: number[] = [];
    try {
      for (let i = 0; i < runs; i++) {
        own.push(await importMs(execPath, pkg.dir, pkg.name));
        if (pkg.baseline) baseline.push(await importMs(execPath, pkg.dir, pkg.baseline.specifier));
      }
    } catch (error) {
      notes.push(`Import time of ${pkg.name} not measured: ${firstLines(error)}`);
      continue;
    }
    const base = pkg.baseline ? { baseline: pkg.baseline.name } : {};
    out.push({ section, metric, subject: pkg.name, unit: 'ms', samples: own, ...base });
    if (pkg.baseline)
      out.push({ section, metric, subject: pkg.baseline.name, unit: 'ms', samples: baseline });
  }
  return { measurements: out, notes };
}

/** Run from the package's own directory, so its name and its dependencies resolve as for a user. */
async function importMs(execPath: string, cwd: string, specifier: string): Promise<number> {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(execPath, ['--input-type=module', '-e', code], {
    cwd,
    timeout: 60_000,
  });
  const ms = Number(stdout);
  if (!Number.isFinite(ms)) throw new Error(`importing ${specifier} printed ${JSON.stringify(stdout)}`);
  return ms;
}
