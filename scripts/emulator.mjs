// `pnpm emulator [flags]`: starts the built dataworkz-emulator bin on its own and prints the lines that
// point the examples (or any client) at it. Flags go to the emulator: `--port 0`, `--api-key dev-key`,
// `--data DIR`, `--help`, ...
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'packages/emulator/bin/dataworkz-emulator.js');
const emulator = spawn(process.execPath, [bin, ...process.argv.slice(2)], {
  stdio: ['ignore', 'pipe', 'inherit'],
});

// The emulator prints its lines (a comment with its URL, the two `export` lines, `# console: URL` unless
// --no-console) in one write; what to do with them follows, once.
let consoleUrl;
let told = false;
createInterface({ input: emulator.stdout }).on('line', (line) => {
  console.log(line);
  consoleUrl ??= /^# console: (\S+)/.exec(line)?.[1];
  if (told || !line.startsWith('export DATAWORKZ_API_KEY=')) return;
  told = true;
  setImmediate(() => {
    console.log(`
Paste the two export lines into another terminal, then: pnpm examples search (or any example by name;
every one without a name).${consoleUrl ? `\nOpen ${consoleUrl} in a browser to see its data, try it and watch the requests.` : ''}`);
  });
});

// Ctrl-C reaches the emulator as well (same process group): it closes its connections and exits, and
// this script exits with it. A SIGTERM sent to this script alone is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => emulator.kill('SIGTERM'));
emulator.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
