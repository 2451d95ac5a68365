// `pnpm examples [name...]`: runs every example program in order (or only the ones named, e.g.
// `search answer`), each in its own process as a user would run it, against the embedded emulator or,
// when DATAWORKZ_BASE_URL and DATAWORKZ_API_KEY are set, a real deployment. Exits non-zero when any
// program fails. `--runtime bun` or `--runtime deno` runs the programs under Bun or Deno (found on
// PATH) instead of Node, with the emulator still on Node.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { type ExampleProgram, programs } from './programs.js';
import { bold, dim, green, red } from './support/output.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
// A stalled program must not hang the run (CI included); the slowest example takes a few seconds.
const PROGRAM_TIMEOUT_MS = 60_000;

const RUNTIMES = {
  node: (file: string) => [process.execPath, '--import', 'tsx', file],
  bun: (file: string) => ['bun', file],
  // Deno resolves the `.js` specifiers of TypeScript sources with --sloppy-imports.
  deno: (file: string) => [
    'deno',
    'run',
    '--allow-env',
    '--allow-net',
    '--allow-read',
    // The AI SDK's gateway client reads the host name when it loads (for its user agent); LangChain's
    // tracing client looks for its profile file in the home directory when a chain runs.
    '--allow-sys=hostname,homedir',
    // The evaluation example writes its results and report under the temporary folder, and only there.
    `--allow-write=${tmpdir()}`,
    '--sloppy-imports',
    file,
  ],
} as const;
type Runtime = keyof typeof RUNTIMES;

/** Each program by its name: its file name without `.ts`, e.g. `search`. */
const programsByName = new Map(programs.map((program) => [program.file.replace(/\.ts$/, ''), program]));

function usageError(message: string): never {
  console.error(`pnpm examples: ${message}`);
  process.exit(2);
}

function parseCommandLine(): { runtime: Runtime; selected: ExampleProgram[] } {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    usageError((error as Error).message);
  }
  const runtime = parsed.values.runtime;
  if (!(runtime in RUNTIMES)) {
    usageError(`--runtime must be one of ${Object.keys(RUNTIMES).join(', ')}; got ${runtime}.`);
  }
  // Named programs run in the order given; none named runs them all.
  const names = [...new Set(parsed.positionals.map((name) => name.replace(/\.ts$/, '')))];
  const selected = names.flatMap((name) => programsByName.get(name) ?? []);
  const unknown = names.filter((name) => !programsByName.has(name));
  if (unknown.length > 0) {
    const list = [...programsByName.keys()].join('\n  ');
    usageError(`no example named ${unknown.join(', ')}. The examples are:\n  ${list}`);
  }
  return { runtime: runtime as Runtime, selected: names.length === 0 ? programs : selected };
}

function parse() {
  return parseArgs({ allowPositionals: true, options: { runtime: { type: 'string', default: 'node' } } });
}

interface Target {
  env: Record<string, string>;
  description: string;
  emulator?: Emulator;
}

async function chooseTarget(): Promise<Target> {
  const { DATAWORKZ_BASE_URL: baseUrl, DATAWORKZ_API_KEY: apiKey } = process.env;
  if (baseUrl && apiKey) {
    return { env: { DATAWORKZ_BASE_URL: baseUrl, DATAWORKZ_API_KEY: apiKey }, description: baseUrl };
  }
  const emulator = await startEmulator({ port: 0, host: '127.0.0.1' });
  return {
    emulator,
    description: `the embedded emulator at ${emulator.url}`,
    env: {
      DATAWORKZ_BASE_URL: emulator.url,
      DATAWORKZ_API_KEY: emulator.apiKey,
      DATAWORKZ_EMULATOR: '1',
      // The seeded agents and systems with the richest behaviour to show.
      DATAWORKZ_AGENT_ID: seed.agents.orderStatus.agentId,
      DATAWORKZ_SYSTEM_ID: seed.systems.productDocs.systemId,
    },
  };
}

function runProgram(file: string, env: Record<string, string>): Promise<number | string> {
  const [command = 'node', ...args] = RUNTIMES[runtime](`src/programs/${file}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: packageRoot,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROGRAM_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(signal ? `killed by ${signal}` : (code ?? 1));
    });
  });
}

const { runtime, selected } = parseCommandLine();
const target = await chooseTarget();
console.log(bold('Dataworkz SDK examples'));
const runtimeName = runtime === 'node' ? `Node ${process.version}` : runtime;
const count = selected.length === 1 ? '1 program' : `${selected.length} programs`;
console.log(dim(`Running ${count} on ${runtimeName} against ${target.description}`));

let passed = 0;
const failed: string[] = [];
try {
  for (const [index, program] of selected.entries()) {
    console.log(
      `\n${bold(`[${index + 1}/${selected.length}] ${program.title}`)} ${dim(`src/programs/${program.file}`)}`,
    );
    const started = performance.now();
    const outcome = await runProgram(program.file, target.env);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (outcome === 0) {
      passed += 1;
      console.log(green(`✔ done in ${seconds} s`));
    } else {
      failed.push(program.file);
      console.log(
        red(`✘ ${program.file} failed (${typeof outcome === 'number' ? `exit code ${outcome}` : outcome})`),
      );
    }
  }
} finally {
  await target.emulator?.close();
}

console.log(`\n${bold('Summary')}`);
if (failed.length > 0) console.log(red(`Failed: ${failed.join(', ')}`));
console.log(`${passed} passed, ${failed.length} failed`);
process.exitCode = failed.length > 0 ? 1 : 0;
