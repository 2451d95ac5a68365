import { driftSummary } from '../../drift-report.js';
import { exportLines } from '../../export-lines.js';
import { defaultLimits } from '../../limits.js';
import { parseArguments, UsageError } from './arguments.js';
import { usage } from './usage.js';

/** Where the emulator's command line prints, what it is called, and when it is asked to stop. */
export interface EmulatorCommandIo {
  /** The command as the user typed it, for the usage and its errors: `dataworkz-emulator`, `dataworkz emulator`. */
  name: string;
  /** Prints a line on standard output: the export lines, the usage asked for. */
  stdout(line: string): void;
  /** Prints a line on standard error: log lines, a mistake with the usage, the drift summary. */
  stderr(line: string): void;
  /** Settles when the user asks the emulator to stop (SIGINT, SIGTERM): it then closes. */
  stopRequested: Promise<unknown>;
}

/**
 * The emulator's command line, for `dataworkz-emulator` and `dataworkz emulator` alike: reads the
 * flags (`--help` for them), starts the emulator, prints the lines that point clients at it, and
 * closes it once a stop is requested. Resolves with the exit code: 0, or 2 for a mistake in the
 * command line (printed with the usage); rejects when the emulator cannot start.
 */
export async function runEmulatorCommand(args: readonly string[], io: EmulatorCommandIo): Promise<number> {
  let parsed: ReturnType<typeof parseArguments>;
  try {
    parsed = parseArguments([...args], io.stderr);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`${io.name}: ${error.message}\n\n${usage(defaultLimits, io.name).trimEnd()}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(usage(defaultLimits, io.name).trimEnd());
    return 0;
  }
  // Loaded once the arguments are known good: the server loads its sentence encoder and corpus, three
  // times what Node takes to start, which `--help` and a mistyped flag need not wait for.
  const { startEmulator } = await import('../server.js');
  const emulator = await startEmulator(parsed.options);
  io.stdout(exportLines(emulator).join('\n'));
  await io.stopRequested;
  await emulator.close();
  // What a recording found where the deployment differs from the spec, for whoever maintains the spec.
  if (emulator.drift) io.stderr(driftSummary(emulator.drift).join('\n'));
  return 0;
}
