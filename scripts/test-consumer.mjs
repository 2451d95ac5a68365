// `pnpm test:consumer`: what npm users receive, used as a user would. Packs the published packages,
// installs the tarballs with plain npm into a fresh project outside the workspace (a copy of
// scripts/consumer), compiles its two programs (ESM and CommonJS) with the strict settings of
// scripts/consumer/tsconfig.json, then runs both against the packed emulator on this machine's Node
// and on the pinned Node 22 and 24.
//
// The programs run even when they do not compile (tsc still emits them), so one run shows both the
// type errors and whether the code works; the exit code is 1 in either case.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { nodeBinary, nodeVersions } from './node-runtimes.mjs';
import { packPublished } from './pack-all.mjs';

const root = resolve(import.meta.dirname, '..');
const programs = ['esm.mjs', 'commonjs.cjs'];
const apiKey = 'consumer-key';
// Bounds on each child, so a hung program or emulator cannot hang CI; a healthy run takes a second.
const PROGRAM_TIMEOUT_MS = 60_000;
const EMULATOR_START_TIMEOUT_MS = 30_000;

const scratch = mkdtempSync(join(tmpdir(), 'dataworkz-consumer-'));
const project = join(scratch, 'project');
const failures = [];
/** Node version → binary: this machine's, then the pinned ones. */
const runtimes = new Map([[process.version, process.execPath]]);
let firstOutput;

function indent(text, prefix = '    ') {
  return text.trimEnd().replace(/^/gm, prefix);
}

/** Starts the packed emulator's bin on `node`; resolves with its URL and a function that stops it. */
function startEmulator(node) {
  const bin = join(project, 'node_modules', '.bin', 'dataworkz-emulator');
  const child = spawn(node, [bin, '--port', '0', '--api-key', apiKey], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const stop = () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((resolveStart, rejectStart) => {
    const fail = (reason) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      rejectStart(new Error(`the packed emulator did not start: ${reason}${output ? `\n${output}` : ''}`));
    };
    const timer = setTimeout(
      () => fail(`no URL within ${EMULATOR_START_TIMEOUT_MS} ms`),
      EMULATOR_START_TIMEOUT_MS,
    );
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code) => fail(`it exited with code ${code}`));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const url = /listening on (\S+)/.exec(line)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolveStart({ url, stop });
    });
  });
}

try {
  console.log(`Consumer project: ${project}`);
  const tarballs = packPublished(join(scratch, 'packs')).map(({ file }) => file);
  console.log(`  packed: ${tarballs.map((file) => basename(file)).join(', ')}`);

  mkdirSync(project);
  for (const entry of ['package.json', 'tsconfig.json', 'tsconfig.browser.json', 'src', 'browser']) {
    cpSync(join(root, 'scripts', 'consumer', entry), join(project, entry), { recursive: true });
  }
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  console.log('  npm install: the tarballs, typescript and @types/node');

  // The Node project (it also emits the programs run below), then a browser page: DOM lib, no @types/node.
  for (const config of ['tsconfig.json', 'tsconfig.browser.json']) {
    const tsc = spawnSync(
      process.execPath,
      [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config, '--pretty', 'false'],
      { cwd: project, encoding: 'utf8' },
    );
    const errors = tsc.stdout.split('\n').filter((line) => /error TS\d+/.test(line)).length;
    if (tsc.status === 0) {
      console.log(`  tsc: compiles under scripts/consumer/${config}`);
    } else {
      failures.push(`tsc: ${errors} error(s) under scripts/consumer/${config}`);
      console.log(
        `  tsc: ${errors} error(s) under scripts/consumer/${config}; running the emitted code anyway`,
      );
      console.log(indent(tsc.stdout || tsc.stderr));
    }
  }

  for (const major of Object.keys(nodeVersions)) runtimes.set(`v${nodeVersions[major]}`, nodeBinary(major));

  for (const [version, node] of runtimes) {
    console.log(`Node ${version}`);
    const emulator = await startEmulator(node);
    try {
      for (const program of programs) {
        const run = spawnSync(node, [join('dist', program)], {
          cwd: project,
          encoding: 'utf8',
          timeout: PROGRAM_TIMEOUT_MS,
          env: { ...process.env, DATAWORKZ_BASE_URL: emulator.url, DATAWORKZ_API_KEY: apiKey },
        });
        const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
        if (run.status === 0) {
          // A healthy run prints the same lines on every runtime and in both forms: show them once.
          const same = firstOutput !== undefined && output === firstOutput;
          firstOutput ??= output;
          console.log(same ? `  ${program}: ok, the same output` : `  ${program}: ok\n${indent(output)}`);
        } else {
          const why =
            run.error?.message ?? (run.signal ? `killed by ${run.signal}` : `exit code ${run.status}`);
          failures.push(`${program} on Node ${version}: ${why}`);
          console.log(`  ${program}: FAILED (${why})`);
          console.log(indent(output));
        }
      }
      // The CLI as npm installed it: its bin, against the packed emulator.
      const cli = spawnSync(node, [join('node_modules', '.bin', 'dataworkz'), 'qna', 'systems'], {
        cwd: project,
        encoding: 'utf8',
        timeout: PROGRAM_TIMEOUT_MS,
        env: { ...process.env, DATAWORKZ_BASE_URL: emulator.url, DATAWORKZ_API_KEY: apiKey },
      });
      if (cli.status === 0 && cli.stdout.trim() !== '') {
        console.log(`  dataworkz qna systems: ok, ${cli.stdout.trim().split('\n').length} systems`);
      } else {
        failures.push(`dataworkz qna systems on Node ${version}: exit code ${cli.status}`);
        console.log(
          `  dataworkz qna systems: FAILED (exit code ${cli.status})\n${indent(cli.stdout + cli.stderr)}`,
        );
      }
    } finally {
      await emulator.stop();
    }
  }
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
