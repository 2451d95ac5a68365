import { readFile } from 'node:fs/promises';
import type { Asset } from '../console/page.js';

/** Where the build puts the bundled page, from this module in `src/console/` or `dist/console/`. */
const pageDir = new URL('../../dist/console-page/', import.meta.url);

const files: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};

/** The page's files by name, read once at start; empty when the package was not built. */
export async function loadAssets(): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  await Promise.all(
    Object.entries(files).map(async ([name, type]) => {
      try {
        assets.set(name, { type, body: await readFile(new URL(name, pageDir)) });
      } catch {
        // Absent from a source checkout before its first build: the console says so when opened.
      }
    }),
  );
  return assets;
}

/** The version of this copy of @dataworkz/emulator, from its package.json (two levels above this module). */
export async function packageVersion(): Promise<string> {
  try {
    const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
    const { version } = JSON.parse(text) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
