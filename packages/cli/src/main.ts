import { tracesWanted } from '@dataworkz/client/node-tracing';
import { CommanderError } from 'commander';
import { ExitCode } from './exit-codes.js';
import { buildProgram, type ProgramResult } from './program.js';
import type { CommandTracing } from './telemetry/traced-run.js';

/** Runs the CLI with these arguments (without `node` and the script); resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const wanted = tracesWanted(process.env);
  for (const warning of wanted.warnings) process.stderr.write(`${warning}\n`);
  if (wanted.exporters.length === 0) return runProgram(argv);
  // The OpenTelemetry SDK loads only when traces are asked for, so other runs start as fast as before.
  const tracing = await (await import('./telemetry/traced-run.js')).startCommandTracing(wanted.exporters);
  const onSigint = () => {
    // A command that handles Ctrl-C itself (a stream, a batch, the emulator) returns and is flushed below.
    if (process.listenerCount('SIGINT') > 1) return;
    tracing.interrupt(ExitCode.interrupted);
    void tracing.shutdown().finally(() => process.exit(ExitCode.interrupted));
  };
  process.on('SIGINT', onSigint);
  try {
    return await runProgram(argv, tracing);
  } finally {
    process.off('SIGINT', onSigint);
    await tracing.shutdown();
  }
}

async function runProgram(argv: readonly string[], tracing?: CommandTracing): Promise<number> {
  const result: ProgramResult = { exitCode: undefined };
  const program = buildProgram(result, tracing?.run);
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
    // Loaded only for a failure: a run that succeeds does not pay for them.
    const [{ reportFailure }, { createOutput }] = await Promise.all([
      import('./failure.js'),
      import('./output.js'),
    ]);
    return reportFailure(error, createOutput({ json: options.json === true, color: options.color }), {
      command: result.command,
      baseUrl: result.context?.baseUrl,
      notFoundUrl: result.context?.notFoundUrl,
    });
  }
}
