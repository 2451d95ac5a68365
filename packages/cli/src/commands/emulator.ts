import type { Context } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { terminalText } from '../terminal-text.js';

/** Starts the local emulator and prints the environment lines that point the CLI (and the SDK) at it. */
export interface EmulatorOptions {
  port?: number;
  host?: string;
  data?: string;
  /** The keys it accepts (`--api-key`, repeatable); the first is printed. One is made when none is given. */
  apiKey?: string[];
  a2aVersion?: '0.3' | '1.0';
  /** False with `--no-console`. */
  console?: boolean;
  record?: string;
  cassette?: string;
  driftReport?: string;
  replay?: string;
  replaySpeed?: number;
  replayIgnore?: string[];
  replayFallback?: 'error' | 'emulate';
  exportOnExit?: string;
  import?: string;
}

export async function emulator(ctx: Context, options: EmulatorOptions): Promise<number> {
  const { driftSummary, exportLines, startEmulator } = await import('@dataworkz/emulator');
  const emu = await startEmulator({
    port: options.port ?? 0,
    host: options.host,
    data: options.data,
    apiKeys: options.apiKey,
    a2aVersion: options.a2aVersion,
    console: options.console ?? true,
    record: options.record,
    cassette: options.cassette,
    driftReport: options.driftReport,
    replay: options.replay,
    replaySpeed: options.replaySpeed,
    replayIgnore: options.replayIgnore,
    replayFallback: options.replayFallback,
    exportOnExit: options.exportOnExit,
    import: options.import,
  });
  // The same lines as `dataworkz-emulator`: ready to paste into a shell (its comments included).
  for (const line of exportLines(emu)) ctx.out.line(line);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await emu.close();
  // What a recording found where the deployment differs from the spec, for whoever maintains the spec.
  // Drift names what a real deployment sent: inert before it reaches the terminal.
  if (emu.drift) for (const line of driftSummary(emu.drift)) ctx.out.error(terminalText(line));
  return ExitCode.ok;
}
