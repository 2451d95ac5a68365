import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Exit, runToExit } from '@dataworkz/measure';

export const bin = fileURLToPath(new URL('../../bin/dataworkz.js', import.meta.url));

/** How a run of the CLI ended: its exit code, stdout and stderr. */
export type CliResult = Exit;

/** A fresh, empty configuration folder, so no test sees another's profiles. */
export function freshConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'dataworkz-cli-'));
}

/**
 * Runs the built `dataworkz` bin as a person's shell would, with only the environment given (plus
 * PATH), stdin from `input` (closed when absent) and stdout/stderr as pipes.
 */
export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return runToExit(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    ...(input === undefined ? {} : { input }),
  });
}

/** The environment that points the CLI at an emulator, with a configuration folder of its own. */
export function cliEnv(
  emulator: { url: string; apiKey: string },
  configDir = freshConfigDir(),
): Record<string, string> {
  return {
    DATAWORKZ_BASE_URL: emulator.url,
    DATAWORKZ_API_KEY: emulator.apiKey,
    DATAWORKZ_CONFIG_DIR: configDir,
  };
}
