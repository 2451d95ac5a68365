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

// The emulator prints a comment with its URL, `export DATAWORKZ_BASE_URL=…`, `export DATAWORKZ_API_KEY=…`
// and `# console: URL` (unless --no-console); the key's line comes after the URL's.
let consoleUrl;
let exports = [];
createInterface({ input: emulator.stdout }).on('line', (line) => {
  console.log(line);
  consoleUrl ??= /^# console: (\S+)/.exec(line)?.[1];
  if (line.startsWith('export ')) exports.push(line);
  if (exports.length < 2) return;
  // Printed once, after the console's line when it has one (it follows the key's at once).
  setImmediate(() => {
    console.log(`
Point the examples or your own client at it, in another terminal:

  ${exports.join('\n  ')}

  pnpm examples search    # or any example by name; every one without a name
${consoleUrl ? `\nOpen ${consoleUrl} in a browser to see its data, try it and watch the requests.\n` : ''}
Ctrl-C stops the emulator.`);
  });
  exports = [];
});

// Ctrl-C reaches the emulator as well (same process group): it closes its connections and exits, and
// this script exits with it. A SIGTERM sent to this script alone is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => emulator.kill('SIGTERM'));
emulator.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
