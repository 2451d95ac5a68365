import { fileURLToPath } from 'node:url';

/** The repository root (this file is compiled to bench/dist/). */
export const repoDir = fileURLToPath(new URL('../..', import.meta.url));
export const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
export const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
/** The site's benchmark page, whose bench block a full run rewrites (see site-page.ts). */
export const sitePagePath = fileURLToPath(
  new URL('../../apps/docs/explanation/benchmarks.md', import.meta.url),
);

/** A compiled module of this package, for starting it in a child process. */
export function distModule(name: string): string {
  return fileURLToPath(new URL(`./${name}`, import.meta.url));
}
