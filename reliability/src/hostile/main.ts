import { parseRunnerArgs, type RunnerArgs, runnerUsage } from '../runner/args.js';
import type { Suite } from '../runner/case.js';
import { runSuites } from '../runner/run-suites.js';
import { clientsSuite } from './clients/suite.js';
import { emulatorSuite } from './emulator/suite.js';

/**
 * Hostile peers against the project's own code, on loopback: each case attacks a process and reports
 * the outcome, its peak RSS, its open descriptors before and after, and the time to answer.
 * Exits 1 when a case fails.
 */
const suites: Suite[] = [emulatorSuite, clientsSuite];

let args: RunnerArgs;
try {
  args = parseRunnerArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(
    `${(error as Error).message}\n\n${runnerUsage(
      'pnpm hostile',
      suites.map((s) => s.name),
    )}`,
  );
  process.exit(2);
}
if (args.help) {
  process.stdout.write(
    runnerUsage(
      'pnpm hostile',
      suites.map((s) => s.name),
    ),
  );
  process.exit(0);
}
const unknown = args.suites.filter((name) => !suites.some((suite) => suite.name === name));
if (unknown.length > 0) {
  process.stderr.write(
    `Unknown suite: ${unknown.join(', ')}\n\n${runnerUsage(
      'pnpm hostile',
      suites.map((s) => s.name),
    )}`,
  );
  process.exit(2);
}
const chosen = args.suites.length === 0 ? suites : suites.filter((suite) => args.suites.includes(suite.name));
console.log(
  `hostile (${args.size}): ${chosen.map((suite) => `${suite.name}: ${suite.description}`).join('; ')}`,
);
const failures = await runSuites(chosen, args.size, args.cases, (line) => console.log(line));
console.log(failures === 0 ? '\nhostile passed' : `\nhostile failed: ${failures} case(s)`);
process.exitCode = failures === 0 ? 0 : 1;
