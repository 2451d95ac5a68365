import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoDir } from './paths.js';

/** A published package measured for size and import time, with the library it is built on as baseline. */
export interface MeasuredPackage {
  readonly name: string;
  readonly dir: string;
  /** esbuild platform: `browser` proves no Node built-in is reached; the emulator is a Node server. */
  readonly platform: 'browser' | 'node';
  readonly baseline?: { readonly name: string; readonly specifier: string };
}

export const measuredPackages: readonly MeasuredPackage[] = [
  {
    name: '@dataworkz/client',
    dir: join(repoDir, 'packages/client'),
    platform: 'browser',
    baseline: { name: 'openapi-fetch', specifier: 'openapi-fetch' },
  },
  {
    name: '@dataworkz/a2a',
    dir: join(repoDir, 'packages/a2a'),
    platform: 'browser',
    baseline: { name: '@a2a-js/sdk/client', specifier: '@a2a-js/sdk/client' },
  },
  { name: '@dataworkz/context-values', dir: join(repoDir, 'packages/context-values'), platform: 'browser' },
  { name: '@dataworkz/emulator', dir: join(repoDir, 'packages/emulator'), platform: 'node' },
];

/** The built file a package's main entry (`exports['.']`) names: `dist/index.js`, or the bundle's entry. */
export function mainEntry(pkg: MeasuredPackage): string {
  const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as {
    exports?: { '.'?: { default?: string } };
  };
  return (manifest.exports?.['.']?.default ?? './dist/index.js').replace(/^\.\//, '');
}
