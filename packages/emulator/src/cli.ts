import { parseArguments, UsageError } from './cli/arguments.js';
import { usage } from './cli/usage.js';
import { exportLines } from './export-lines.js';
import { defaultLimits } from './limits.js';
import { driftSummary } from './record/drift-report.js';

/** Exit codes, in one place. */
const exit = { ok: 0, failed: 1, usage: 2 } as const;

// Installed before anything else: a signal during start-up, or right after the banner, still closes cleanly.
const stopRequested = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});

const stderr = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseArguments>;
  try {
    parsed = parseArguments(process.argv.slice(2), stderr);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`dataworkz-emulator: ${error.message}\n\n${usage(defaultLimits)}`);
    return exit.usage;
  }
  if (parsed.help) {
    process.stdout.write(usage(defaultLimits));
    return exit.ok;
  }
  // Loaded once the arguments are known good: the server loads its sentence encoder and corpus, three
  // times what Node takes to start, which `--help` and a mistyped flag need not wait for.
  const { startEmulator } = await import('./server.js');
  const emulator = await startEmulator(parsed.options);
  process.stdout.write(`${exportLines(emulator).join('\n')}\n`);
  await stopRequested;
  await emulator.close();
  if (emulator.drift) process.stderr.write(`${driftSummary(emulator.drift).join('\n')}\n`);
  return exit.ok;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`dataworkz-emulator: ${(error as Error).message}\n`);
    process.exit(exit.failed);
  },
);
