import { CommanderError } from 'commander';
import { ExitCode } from './exit-codes.js';
import { reportFailure } from './failure.js';
import { createOutput } from './output.js';
import { buildProgram, type ProgramResult } from './program.js';

/** Runs the CLI with these arguments (without `node` and the script); resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const result: ProgramResult = { exitCode: undefined };
  const program = buildProgram(result);
  if (argv.length === 0) {
    program.outputHelp();
    return ExitCode.ok;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return result.exitCode ?? ExitCode.ok;
  } catch (error) {
    // The parser has printed its message (with a pointer to --help); help and version exit 0.
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    const options = program.opts<{ json?: boolean; color?: boolean }>();
    return reportFailure(error, createOutput({ json: options.json === true, color: options.color }));
  }
}
