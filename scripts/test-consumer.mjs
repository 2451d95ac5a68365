// `pnpm test:consumer`: what npm users receive, used as a user would. Packs the published packages,
// installs the tarballs with plain npm into a fresh project outside the workspace (a copy of
// scripts/consumer), compiles its programs and runs them on this machine's Node and on the pinned
// Node 22 and 24 (scripts/consumer-checks.mjs), checking on each that npm installs the tree with
// --engine-strict. CI runs the same checks on the packages installed by
// name from a registry, in the registry round trip.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { compileConsumer, copyConsumer, runConsumer } from './consumer-checks.mjs';
import { nodeBinary, nodeVersions } from './node-runtimes.mjs';
import { packPublished } from './pack-all.mjs';

const root = resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'dataworkz-consumer-'));
const project = join(scratch, 'project');
const failures = [];
/** Node version → binary: this machine's, then the pinned ones. */
const runtimes = new Map([[process.version, process.execPath]]);

try {
  console.log(`Consumer project: ${project}`);
  const tarballs = packPublished(join(scratch, 'packs')).map(({ file }) => file);
  console.log(`  packed: ${tarballs.map((file) => basename(file)).join(', ')}`);

  mkdirSync(project);
  const consumer = join(root, 'scripts', 'consumer');
  cpSync(join(consumer, 'package.json'), join(project, 'package.json'));
  copyConsumer(consumer, project);
  // --engine-strict: a package whose `engines` excludes this Node fails the install, not just warns.
  execFileSync(
    'npm',
    ['install', '--engine-strict', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs],
    {
      cwd: project,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  console.log('  npm install: the tarballs, typescript and @types/node');
  failures.push(...compileConsumer(project));
  for (const major of Object.keys(nodeVersions)) runtimes.set(`v${nodeVersions[major]}`, nodeBinary(major));
  failures.push(...(await runConsumer(project, runtimes)));
} catch (error) {
  failures.push(error.message);
  console.log(`  FAILED: ${error.message}`);
}

if (failures.length > 0) {
  console.error(`\nconsumer: ${failures.length} failure(s); the project is kept in ${project}`);
  for (const failure of failures) console.error(`  ${failure}`);
  process.exit(1);
}
rmSync(scratch, { recursive: true, force: true });
console.log(
  `\nconsumer: installed with npm, compiled, and ran as ESM and CommonJS on Node ${[...runtimes.keys()].join(', ')}`,
);
