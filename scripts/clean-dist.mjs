// Removes the dist/ folder of every published package (no argument: what `pnpm release` runs first), or
// of the package in the current folder (`.`: what each package's build runs first). So a file whose
// source was deleted or renamed can linger neither in dist/ nor in turbo's cache of it, and a release
// may take a build from that cache: what it restores is exactly what a clean build of the same sources
// wrote.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { publishedPackages } from './published-packages.mjs';

const root = resolve(import.meta.dirname, '..');
if (process.argv[2] === '.') {
  rmSync(resolve('dist'), { recursive: true, force: true });
} else {
  for (const { dir } of publishedPackages) rmSync(join(root, dir, 'dist'), { recursive: true, force: true });
  console.log(`clean-dist: removed dist/ of ${publishedPackages.length} packages`);
}
