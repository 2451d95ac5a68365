import type { Context } from '../context.js';
import { terminalText } from '../terminal-text.js';

/**
 * `dataworkz emulator`: the emulator's own command line (`dataworkz-emulator`), its flags, defaults and
 * help, under this name; the export lines on stdout, the rest on stderr.
 */
export async function emulator(ctx: Context, args: readonly string[]): Promise<number> {
  const { runEmulatorCommand } = await import('@dataworkz/emulator/cli');
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  return runEmulatorCommand(args, {
    name: 'dataworkz emulator',
    stdout: (line) => ctx.out.line(line),
    // Its drift summary names what a real deployment sent: inert before it reaches the terminal.
    stderr: (line) => ctx.out.error(terminalText(line)),
    stopRequested,
  });
}
