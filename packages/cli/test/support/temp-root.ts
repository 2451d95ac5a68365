import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The suites make many folders (configuration homes, golden files, outputs) under the system's
// temporary folder; here they all go into one that is removed when the run ends, passed or not.
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'dataworkz-cli-tests-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
