import { type ChildProcess, fork, spawn } from 'node:child_process';

/** A message a child process sends back over IPC. */
type ChildReply =
  | { readonly kind: 'result'; readonly value: unknown }
  | { readonly kind: 'error'; readonly message: string };

export interface ChildOptions {
  readonly timeoutMs: number;
  readonly execArgv?: readonly string[];
  /** The Node binary to run the child on; this process's own by default. */
  readonly execPath?: string;
  /** Arguments after the module path. */
  readonly args?: readonly string[];
  /** Keep the child's stdout and stderr (read with `outputOf`) instead of passing them through. */
  readonly captureOutput?: boolean;
}

/** Each child's module, for messages, and what it wrote when started with `captureOutput`. */
const started = new WeakMap<ChildProcess, { name: string; output: string }>();

/** Starts `modulePath` in a fresh Node process with an IPC channel; `ask` talks to it. */
export function startChild(modulePath: string | URL, options: Omit<ChildOptions, 'timeoutMs'>): ChildProcess {
  const child = fork(modulePath, [...(options.args ?? [])], {
    execPath: options.execPath ?? process.execPath,
    execArgv: [...(options.execArgv ?? [])],
    stdio: [
      'ignore',
      options.captureOutput ? 'pipe' : 'inherit',
      options.captureOutput ? 'pipe' : 'inherit',
      'ipc',
    ],
  });
  const record = { name: String(modulePath), output: '' };
  started.set(child, record);
  if (options.captureOutput) {
    const keep = (chunk: Buffer) => {
      record.output += chunk.toString('utf8');
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }
  // A child that dies mid-message must not take the parent with it.
  child.on('error', () => {});
  return child;
}

/** What a child started with `captureOutput` wrote on stdout and stderr so far. */
export function outputOf(child: ChildProcess): string {
  return started.get(child)?.output ?? '';
}

/** Whether the child is still running. */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Sends `request` to a child and resolves with its next reply of kind `result`; rejects with the
 * message of a reply of kind `error`, when the child exits first, or after `timeoutMs`.
 */
export function ask(child: ChildProcess, request: unknown, timeoutMs: number): Promise<unknown> {
  const name = started.get(child)?.name ?? 'the child';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`${name} gave no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    let settled = false;
    const finish = (error: Error | undefined, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(value);
    };
    const onMessage = (message: unknown) => {
      const reply = message as ChildReply;
      if (reply.kind === 'result') finish(undefined, reply.value);
      else if (reply.kind === 'error') finish(new Error(reply.message));
    };
    const onExit = (code: number | null, signal: string | null) => {
      const output = outputOf(child).trim();
      finish(
        new Error(
          `${name} exited (${signal ?? `code ${code}`}) before answering${output ? `: ${output}` : ''}`,
        ),
      );
    };
    if (!isRunning(child)) return onExit(child.exitCode, child.signalCode);
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(request as object);
  });
}

/**
 * Starts `modulePath` in a fresh Node process, sends it `request` and resolves with its answer and the
 * child, which keeps running. The process is killed when it fails or takes longer than the time-out.
 */
export async function askChild(
  modulePath: string | URL,
  request: unknown,
  options: ChildOptions,
): Promise<{ value: unknown; child: ChildProcess }> {
  const child = startChild(modulePath, options);
  try {
    return { value: await ask(child, request, options.timeoutMs), child };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/** Ends a child with SIGTERM (SIGKILL after `graceMs`) and waits until it has exited. */
export function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (!isRunning(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Child side: answers each request with `handle`'s result, or with the error it threw. */
export function answerParent(handle: (request: unknown) => Promise<unknown>): void {
  process.on('message', (request: unknown) => {
    handle(request).then(
      (value) => process.send?.({ kind: 'result', value } satisfies ChildReply),
      (error: unknown) =>
        process.send?.({
          kind: 'error',
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        } satisfies ChildReply),
    );
  });
  // A child whose parent has gone must not linger.
  process.once('disconnect', () => process.exit(0));
}

/** How a process run by `runToExit` ended, with all it wrote. */
export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its exit with stdout and stderr as pipes, read whole; stdin is `input` (closed at
 * once when absent). `env` replaces the environment when given.
 */
export function runToExit(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      ...(options.env ? { env: options.env } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input);
  });
}
