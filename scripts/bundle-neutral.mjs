// Bundles each browser/edge package with esbuild for the neutral platform: any Node built-in on the
// import path (node:*, fs, buffer, ...) fails to resolve there, so a clean bundle proves there is none.
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { publishedPackages } from './published-packages.mjs';

const root = resolve(import.meta.dirname, '..');
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
let failed = 0;

// Every published package runs in browsers and edge runtimes. The emulator's startEmulator is Node's
// own, behind its `node` import condition: a neutral bundle gets createEmulator, and a startEmulator
// that says it needs Node.
for (const { name, dir } of publishedPackages) {
  try {
    const result = await build({
      entryPoints: [join(root, dir, 'dist/index.js')],
      bundle: true,
      platform: 'neutral',
      // The neutral platform reads no package.json field by default; packages in the wild need these.
      mainFields: ['module', 'main'],
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
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
