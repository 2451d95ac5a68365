import { main } from '../../src/main.js';
import type { CliResult } from './run-cli.js';

// The variables the CLI reads; a run sees only those it is given, as a spawned one does.
const READ = /^(DATAWORKZ_|OTEL_)|^(NO_COLOR|FORCE_COLOR|TERM)$/;

/**
 * Runs the CLI's `main` in this process, as `runCli` runs the bin in a child: the given environment
 * alone, stdout and stderr captured as a pipe would (no terminal), the exit code `main` resolves with.
 * Spawning Node and loading the client and `fetch` costs about half a CPU-second a run; this costs
 * next to nothing. For commands that read no standard input, handle no signal and do not end stdout
 * (`qna document` pipes into it): those run in a real process, through `runCli`.
 */
export async function runInProcess(args: string[], env: Record<string, string>): Promise<CliResult> {
  const saved = Object.entries(process.env).filter(([name]) => READ.test(name));
  for (const [name] of saved) delete process.env[name];
  Object.assign(process.env, env);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const restore = [capture(process.stdout, stdout), capture(process.stderr, stderr)];
  try {
    const code = await main(args);
    return {
      code,
      stdout: Buffer.concat(stdout).toString('utf8'),
      stderr: Buffer.concat(stderr).toString('utf8'),
    };
  } finally {
    for (const undo of restore) undo();
    for (const name of Object.keys(env)) delete process.env[name];
    Object.assign(process.env, Object.fromEntries(saved));
  }
}

/** Collects what is written to `stream`, which reads as a pipe meanwhile; returns the undo. */
function capture(stream: NodeJS.WriteStream, into: Buffer[]): () => void {
  const own = Object.getOwnPropertyDescriptors(stream);
  const write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    into.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
    const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (done) queueMicrotask(done);
    return true;
  };
  Object.defineProperty(stream, 'write', { value: write, configurable: true, writable: true });
  Object.defineProperty(stream, 'isTTY', { value: false, configurable: true, writable: true });
  return () => {
    for (const name of ['write', 'isTTY'] as const) {
      const descriptor = own[name];
      if (descriptor) Object.defineProperty(stream, name, descriptor);
      else delete (stream as unknown as Record<string, unknown>)[name];
    }
  };
}
