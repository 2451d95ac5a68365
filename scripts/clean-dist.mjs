// Removes the dist/ folder of every published package, so `pnpm release` builds each from its sources
// alone: a file whose source was deleted or renamed cannot linger in dist/ and reach npm.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { publishedPackages } from './published-packages.mjs';

const root = resolve(import.meta.dirname, '..');
for (const { dir } of publishedPackages) rmSync(join(root, dir, 'dist'), { recursive: true, force: true });
console.log(`clean-dist: removed dist/ of ${publishedPackages.length} packages`);
