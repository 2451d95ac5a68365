import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The core `createEmulator` runs in browsers and edge runtimes: Node-only code lives in src/node/
// alone, reached from the core only through the package's import map (`#node-server`) or as types.
const src = fileURLToPath(new URL('../src/', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const core = filesUnder(src)
  .map((file) => ({ file: relative(src, file), text: readFileSync(file, 'utf8') }))
  .filter(({ file }) => !file.startsWith('node/'));

describe('the runtime-neutral core', () => {
  it('imports no node: module', () => {
    const offenders = core.filter(({ text }) => /from\s+['"]node:|import\(\s*['"]node:/.test(text));
    expect(offenders.map((o) => o.file)).toEqual([]);
  });

  it('reaches src/node/ only for types', () => {
    const offenders = core.filter(({ text }) =>
      text
        .split('\n')
        .some((line) => /['"](\.\.?\/)+node\//.test(line) && !/^\s*(import|export) type /.test(line)),
    );
    expect(offenders.map((o) => o.file)).toEqual([]);
  });
});
