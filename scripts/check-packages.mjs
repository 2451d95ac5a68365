// Checks each published package as npm users receive it: the packed tarball through publint --strict
// and arethetypeswrong, then require() of the built entry point (Node 20.19+ loads ESM through require).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packPublished } from './pack-all.mjs';
import { publishedPackages } from './published-packages.mjs';

const root = resolve(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const packDir = mkdtempSync(join(tmpdir(), 'dataworkz-pack-'));
const failures = [];

function run(label, command, args, cwd) {
  try {
    execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    console.log(`  ok    ${label}`);
  } catch (error) {
    failures.push(label);
    console.log(`  FAIL  ${label}`);
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim() || error.message;
    console.log(output.replace(/^/gm, '        '));
  }
}

try {
  const tarballs = new Map(packPublished(packDir).map(({ name, file }) => [name, file]));
  for (const { name, dir } of publishedPackages) {
    const cwd = join(root, dir);
    console.log(name);

    // The tarball packed above, so publint reads the files npm users receive without packing again.
    run('publint --strict', bin('publint'), ['run', '--strict', tarballs.get(name)], cwd);
    // ESM only by design; the "esm-only" profile skips the CommonJS-typings rows, and the require()
    // check below proves that CommonJS callers on Node 20.19+ load the package.
    run(
      'arethetypeswrong',
      bin('attw'),
      [tarballs.get(name), '--profile', 'esm-only', '--format', 'ascii'],
      cwd,
    );
    const requireProgram = `const m = require(${JSON.stringify(name)}); if (Object.keys(m).length === 0) throw new Error('no exports');`;
    // Resolved by name from the package's own folder (a self-reference through its `exports`), so a
    // package no app depends on is checked too.
    run('require() from CommonJS', process.execPath, ['--no-warnings', '-e', requireProgram], cwd);
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`\n${failures.length} package check(s) failed`);
  process.exit(1);
}
console.log('\nall package checks passed');
