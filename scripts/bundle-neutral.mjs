// Bundles each browser/edge package with esbuild for the neutral platform: any Node built-in on the
// import path (node:*, fs, buffer, ...) fails to resolve there, so a clean bundle proves there is none.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { neutralPackages } from './published-packages.mjs';

const root = resolve(import.meta.dirname, '..');
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
let failed = 0;

for (const { name, dir } of neutralPackages) {
  // Peer dependencies (a framework the user brings) stay outside: the user's bundler resolves them
  // with the framework's own conditions; what is checked is this package's own import path.
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const peers = Object.keys(manifest.peerDependencies ?? {});
  try {
    const result = await build({
      // The package's main entry, as its manifest names it (a bundled package keeps it in dist/js).
      entryPoints: [join(root, dir, manifest.exports?.['.']?.default ?? 'dist/index.js')],
      bundle: true,
      platform: 'neutral',
      // The neutral platform reads no package.json field by default; packages in the wild need these.
      mainFields: ['module', 'main'],
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: peers.flatMap((peer) => [peer, `${peer}/*`]),
    });
    const imported = Object.values(result.metafile.inputs).flatMap((input) =>
      input.imports.map((i) => i.path),
    );
    const leaked = [...new Set(imported.filter((path) => builtins.has(path)))];
    if (leaked.length > 0) throw new Error(`imports Node built-ins: ${leaked.join(', ')}`);
    const bytes = result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0);
    console.log(`  ok    ${name} (${(bytes / 1024).toFixed(1)} kB unminified)`);
  } catch (error) {
    failed += 1;
    const messages = error.errors?.map((e) => `${e.text}${e.location ? ` (${e.location.file})` : ''}`);
    console.log(`  FAIL  ${name}: ${messages?.join('; ') ?? error.message}`);
  }
}

if (failed > 0) process.exit(1);
