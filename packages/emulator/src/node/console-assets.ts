import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Asset } from '../console/page.js';

/**
 * This package's own package.json, found by its name (Node resolves a package's name from inside it),
 * so the same code finds it from `src/node/` and from the bundle in `dist/js/`.
 */
function packageFile(): URL | undefined {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('@dataworkz/emulator/package.json'));
  } catch {
    return undefined;
  }
}

const files: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};

/** The page's files by name, read once at start; empty when the package was not built. */
export async function loadAssets(): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  const file = packageFile();
  if (file === undefined) return assets;
  // Where the build puts the bundled page.
  const dir = new URL('dist/console-page/', file);
  await Promise.all(
    Object.entries(files).map(async ([name, type]) => {
      try {
        assets.set(name, { type, body: await readFile(new URL(name, dir)) });
      } catch {
        // Absent from a source checkout before its first build: the console says so when opened.
      }
    }),
  );
  return assets;
}

/** The version of this copy of @dataworkz/emulator, from its package.json. */
export async function packageVersion(): Promise<string> {
  const file = packageFile();
  if (file === undefined) return 'unknown';
  try {
    const text = await readFile(file, 'utf8');
    const { version } = JSON.parse(text) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
