// Bundles the console page (console/src, Preact) into dist/console-page: one minified script, the
// stylesheet and the HTML that loads them, served by the emulator at /console with no network.
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/console-page`;

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  entryPoints: [`${root}console/src/main.tsx`],
  outfile: `${out}/app.js`,
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  // Source packages of the workspace (@dataworkz/context-values) are taken from their sources.
  conditions: ['@dataworkz/source'],
  logLevel: 'warning',
});
await copyFile(`${root}console/index.html`, `${out}/index.html`);
await copyFile(`${root}console/app.css`, `${out}/app.css`);
await copyFile(`${root}console/favicon.svg`, `${out}/favicon.svg`);
