import type { Context } from '../context.js';
import { ExitCode } from '../exit-codes.js';

/** Starts the local emulator and prints the environment lines that point the CLI (and the SDK) at it. */
export interface EmulatorOptions {
  port?: number;
  host?: string;
  data?: string;
  a2aVersion?: '0.3' | '1.0';
  /** False with `--no-console`. */
  console?: boolean;
}

export async function emulator(ctx: Context, options: EmulatorOptions): Promise<number> {
  const { startEmulator } = await import('@dataworkz/emulator');
  const emu = await startEmulator({
    port: options.port ?? 0,
    host: options.host,
    data: options.data,
    a2aVersion: options.a2aVersion,
    console: options.console ?? true,
  });
  const { dim } = ctx.out.colors;
  ctx.out.error(dim(`The emulator listens on ${emu.url}. Point the CLI at it (Ctrl-C stops it):`));
  ctx.out.line(`export DATAWORKZ_BASE_URL=${emu.url}`);
  ctx.out.line(`export DATAWORKZ_API_KEY=${emu.apiKey}`);
  // A shell comment: the lines above stay ready to paste or eval with it.
  if (emu.consoleUrl) ctx.out.line(`# console: ${emu.consoleUrl}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await emu.close();
  return ExitCode.ok;
}
