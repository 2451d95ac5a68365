import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { build } from 'esbuild';
import { firstLines } from '../errors.js';
import type { Measurement, SectionResult } from '../measurement.js';
import { type MeasuredPackage, mainEntry } from '../packages.js';

// On libuv's thread pool, so the bundles compress side by side.
const compress = promisify(brotliCompress);
const section = '6. package size and import time';
const withoutDeps = 'min+brotli, without dependencies';
const withDeps = 'min+brotli, with dependencies';

/**
 * Minified, brotli-compressed bundle sizes of each package, alone and with everything it imports. The
 * bundles are built at once (esbuild builds on every core); sizes do not depend on timing.
 */
export async function measureSizes(
  packages: readonly MeasuredPackage[],
  brotliQuality: number,
): Promise<SectionResult> {
  const results = await Promise.all(
    packages.map(async (pkg) => {
      try {
        const entry = `export * from './${mainEntry(pkg)}';`;
        const [ownSize, withAll, baselineSize] = await Promise.all([
          bundleSize(pkg, entry, false, brotliQuality),
          bundleSize(pkg, entry, true, brotliQuality),
          pkg.baseline
            ? bundleSize(pkg, `export * from '${pkg.baseline.specifier}';`, true, brotliQuality)
            : undefined,
        ]);
        const alone: Measurement = {
          section,
          metric: withoutDeps,
          subject: pkg.name,
          unit: 'KiB',
          samples: [ownSize],
        };
        const bundled: Measurement[] =
          pkg.baseline && baselineSize !== undefined
            ? [
                {
                  section,
                  metric: withDeps,
                  subject: pkg.name,
                  unit: 'KiB',
                  samples: [withAll],
                  baseline: pkg.baseline.name,
                },
                {
                  section,
                  metric: withDeps,
                  subject: pkg.baseline.name,
                  unit: 'KiB',
                  samples: [baselineSize],
                },
              ]
            : [{ section, metric: withDeps, subject: pkg.name, unit: 'KiB', samples: [withAll] }];
        return { alone: [alone], bundled, notes: [] };
      } catch (error) {
        return { alone: [], bundled: [], notes: [`Size of ${pkg.name} not measured: ${firstLines(error)}`] };
      }
    }),
  );
  return {
    measurements: [...results.flatMap((r) => r.alone), ...results.flatMap((r) => r.bundled)],
    notes: results.flatMap((r) => r.notes),
  };
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
    (await compress(code, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality } })).length / 1024
  );
}
