import { parseArgs } from 'node:util';
import type { Size } from './case.js';

export interface RunnerArgs {
  size: Size;
  /** Suites to run; all when empty. */
  suites: string[];
  /** Only cases whose name contains one of these; all when empty. */
  cases: string[];
  help: boolean;
}

export function runnerUsage(command: string, suites: string[]): string {
  return `Usage: ${command} [--quick] [--suite <name>]... [--case <text>]...

  --quick          small counts, for CI (default: the full size)
  --suite <name>   run only this suite (repeatable): ${suites.join(', ')}
  --case <text>    run only the cases whose name contains the text (repeatable)
  -h, --help       show this help
`;
}

/** The runner's command line; throws on an unknown flag. */
export function parseRunnerArgs(args: string[]): RunnerArgs {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      quick: { type: 'boolean', default: false },
      suite: { type: 'string', multiple: true },
      case: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  return {
    size: values.quick ? 'quick' : 'full',
    suites: values.suite ?? [],
    cases: values.case ?? [],
    help: values.help ?? false,
  };
}
