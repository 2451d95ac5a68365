// A user's project, checked: scripts/consumer's programs compiled with its strict settings (a Node
// project, then a browser page), then run on each Node version against the installed emulator's bin,
// with the installed CLI beside them. Shared by `pnpm test:consumer` (the tarballs installed with npm)
// and the registry round trip (the packages installed by name from a registry).
//
// The programs run even when they do not compile (tsc still emits them), so one run shows both the
// type errors and whether the code works; each problem is returned, in the order found.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** What a project copies from scripts/consumer, beside its own package.json. */
export const consumerFiles = ['tsconfig.json', 'tsconfig.browser.json', 'src', 'browser'];
const programs = ['esm.mjs', 'commonjs.cjs'];
export const apiKey = 'consumer-key';
// Bounds on each child, so a hung program or emulator cannot hang CI; a healthy run takes a second.
const PROGRAM_TIMEOUT_MS = 60_000;
const EMULATOR_START_TIMEOUT_MS = 30_000;

function indent(text, prefix = '    ') {
  return text.trimEnd().replace(/^/gm, prefix);
}

/** Copies the consumer's sources and settings from `consumerDir` into `project`. */
export function copyConsumer(consumerDir, project) {
  for (const entry of consumerFiles)
    cpSync(join(consumerDir, entry), join(project, entry), { recursive: true });
}

/** The Node project (it also emits the programs run next), then a browser page: DOM lib, no @types/node. */
export function compileConsumer(project) {
  const problems = [];
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
      problems.push(`tsc: ${errors} error(s) under scripts/consumer/${config}`);
      console.log(
        `  tsc: ${errors} error(s) under scripts/consumer/${config}; running the emitted code anyway`,
      );
      console.log(indent(tsc.stdout || tsc.stderr));
    }
  }
  return problems;
}

/** Starts the installed emulator's bin on `node`; resolves with its URL and a function that stops it. */
export function startEmulatorBin(project, node) {
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
      rejectStart(new Error(`the installed emulator did not start: ${reason}${output ? `\n${output}` : ''}`));
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

/** npm's own script, run below by each Node binary; found once. */
let npmCli;

/**
 * `npm install --engine-strict` in the installed project, with npm run by `node`: npm checks every
 * package's `engines` against the Node that runs it, so each runtime proves the tree installs on it
 * without an EBADENGINE. The tree is in place already, so this reads the lockfile and downloads nothing.
 */
function checkEngines(project, version, node, env) {
  npmCli ??= join(
    execFileSync('npm', ['root', '-g'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    'npm',
    'bin',
    'npm-cli.js',
  );
  const install = spawnSync(
    node,
    [npmCli, 'install', '--engine-strict', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'],
    { cwd: project, encoding: 'utf8', timeout: 5 * PROGRAM_TIMEOUT_MS, env },
  );
  if (install.status === 0) {
    console.log('  npm install --engine-strict: ok');
    return [];
  }
  console.log(`  npm install --engine-strict: FAILED\n${indent(`${install.stdout}${install.stderr}`)}`);
  return [`npm install --engine-strict on Node ${version}: exit code ${install.status ?? install.signal}`];
}

/**
 * On each runtime (Node version → binary): the installed tree's `engines` checked, the emulator's bin
 * started, both compiled programs run against it, and `dataworkz qna systems` through the CLI's bin.
 * `npmEnv` is the environment npm needs to reach the registry the project was installed from.
 */
export async function runConsumer(project, runtimes, npmEnv = process.env) {
  const problems = [];
  let firstOutput;
  for (const [version, node] of runtimes) {
    console.log(`Node ${version}`);
    problems.push(...checkEngines(project, version, node, npmEnv));
    const emulator = await startEmulatorBin(project, node);
    const env = { ...process.env, DATAWORKZ_BASE_URL: emulator.url, DATAWORKZ_API_KEY: apiKey };
    try {
      for (const program of programs) {
        const run = spawnSync(node, [join('dist', program)], {
          cwd: project,
          encoding: 'utf8',
          timeout: PROGRAM_TIMEOUT_MS,
          env,
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
          problems.push(`${program} on Node ${version}: ${why}`);
          console.log(`  ${program}: FAILED (${why})`);
          console.log(indent(output));
        }
      }
      const cli = spawnSync(node, [join('node_modules', '.bin', 'dataworkz'), 'qna', 'systems'], {
        cwd: project,
        encoding: 'utf8',
        timeout: PROGRAM_TIMEOUT_MS,
        env,
      });
      if (cli.status === 0 && cli.stdout.trim() !== '') {
        console.log(`  dataworkz qna systems: ok, ${cli.stdout.trim().split('\n').length} systems`);
      } else {
        problems.push(`dataworkz qna systems on Node ${version}: exit code ${cli.status}`);
        console.log(
          `  dataworkz qna systems: FAILED (exit code ${cli.status})\n${indent(cli.stdout + cli.stderr)}`,
        );
      }
    } finally {
      await emulator.stop();
    }
  }
  return problems;
}
