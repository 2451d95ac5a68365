import { brotliCompressSync, constants } from 'node:zlib';
import { build } from 'esbuild';
import { firstLines } from '../errors.js';
import type { Measurement, SectionResult } from '../measurement.js';
import type { MeasuredPackage } from '../packages.js';

const section = '6. package size and import time';
const withoutDeps = 'min+brotli, without dependencies';
const withDeps = 'min+brotli, with dependencies';

/** Minified, brotli-compressed bundle sizes of each package, alone and with everything it imports. */
export async function measureSizes(
  packages: readonly MeasuredPackage[],
  brotliQuality: number,
): Promise<SectionResult> {
  const alone: Measurement[] = [];
  const bundled: Measurement[] = [];
  const notes: string[] = [];
  for (const pkg of packages) {
    try {
      const entry = `export * from './dist/index.js';`;
      alone.push({
        section,
        metric: withoutDeps,
        subject: pkg.name,
        unit: 'KiB',
        samples: [await bundleSize(pkg, entry, false, brotliQuality)],
      });
      const withAll = await bundleSize(pkg, entry, true, brotliQuality);
      if (pkg.baseline) {
        const baselineSize = await bundleSize(
          pkg,
          `export * from '${pkg.baseline.specifier}';`,
          true,
          brotliQuality,
        );
        bundled.push(
          {
            section,
            metric: withDeps,
            subject: pkg.name,
            unit: 'KiB',
            samples: [withAll],
            baseline: pkg.baseline.name,
          },
          { section, metric: withDeps, subject: pkg.baseline.name, unit: 'KiB', samples: [baselineSize] },
        );
      } else {
        bundled.push({ section, metric: withDeps, subject: pkg.name, unit: 'KiB', samples: [withAll] });
      }
    } catch (error) {
      notes.push(`Size of ${pkg.name} not measured: ${firstLines(error)}`);
    }
  }
  return { measurements: [...alone, ...bundled], notes };
}

async function bundleSize(
  pkg: MeasuredPackage,
  contents: string,
  withDependencies: boolean,
  brotliQuality: number,
): Promise<number> {
  const result = await build({
    stdin: { contents, resolveDir: pkg.dir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: pkg.platform,
    // Without dependencies only the package's own code counts.
    ...(withDependencies ? {} : { packages: 'external' as const }),
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`esbuild produced no output for ${pkg.name}`);
  return (
    brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality } }).length / 1024
  );
}
