import { runEmulatorCommand } from './command.js';

// Installed before anything else: a signal during start-up, or right after the banner, still closes cleanly.
const stopRequested = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});

runEmulatorCommand(process.argv.slice(2), {
  name: 'dataworkz-emulator',
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  stopRequested,
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`dataworkz-emulator: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
