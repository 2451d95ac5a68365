// Bundles the emulator's JavaScript into dist/js: one module per entry of package.json (exports and
// imports) and the chunks they share, instead of tsc's one module per source file. Node resolves,
// reads and compiles each module of an import on its own; at ~110 modules that was most of what
// importing the package cost (measured on Node 20: ~140 → ~60 ms of CPU). tsc still writes the
// declarations (tsconfig.build.json), which `types` points to.
//
// What stays a separate module on purpose:
// - every dynamic `import()` (record, replay, the retriever, the encoder…): esbuild splits there, so
//   start-up still loads only what its mode asks for;
// - the package's own `#…` imports: resolved where the bundle runs (the `node` condition in Node, the
//   default in a browser or edge bundler), so each of their targets is an entry here too, sharing the
//   chunks (one copy of every module, whichever target is taken);
// - every dependency and node: built-in (`packages: 'external'`).
// All outputs sit one folder below dist, as the sources sit one below src: the binary tables that
// modules name as `new URL('../generated/…', import.meta.url)` resolve the same from either.
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;

await build({
  absWorkingDir: root,
  entryPoints: {
    index: 'src/index.ts',
    cli: 'src/node/cli/index.ts',
    bin: 'src/node/cli/bin.ts',
    'sentence-encoder': 'src/node/sentence-encoder-entry.ts',
    'node-server': 'src/node/server.ts',
    'server-unavailable': 'src/server-unavailable.ts',
    'read-asset-node': 'src/node/read-asset.ts',
    'read-asset-fetch': 'src/embedding/read-asset.ts',
    'digests-node': 'src/node/digests.ts',
    'digests-hashes': 'src/neutral/digests.ts',
  },
  outdir: 'dist/js',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  packages: 'external',
  external: ['node:*', '#*'],
  sourcemap: true,
  // The sources ship in the package (files: src): the maps point at them rather than copying them.
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
});
