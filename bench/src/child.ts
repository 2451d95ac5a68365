import { type ChildProcess, fork } from 'node:child_process';

/** A message a child process sends back over IPC. */
type ChildReply =
  | { readonly kind: 'result'; readonly value: unknown }
  | { readonly kind: 'error'; readonly message: string };

export interface ChildOptions {
  readonly timeoutMs: number;
  readonly execArgv?: readonly string[];
  /** The Node binary to run the child on; the bench's own by default. */
  readonly execPath?: string;
}

/**
 * Starts `modulePath` in a fresh Node process, sends it `request` and resolves with the first reply of
 * kind `result`. The process is killed when it takes longer than the time-out.
 */
export function askChild(
  modulePath: string,
  request: unknown,
  options: ChildOptions,
): Promise<{
  value: unknown;
  child: ChildProcess;
}> {
  const child = fork(modulePath, [], {
    execPath: options.execPath ?? process.execPath,
    execArgv: [...(options.execArgv ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new Error(`${modulePath} gave no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    let settled = false;
    const finish = (error: Error | undefined, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('message', onMessage);
      if (error) reject(error);
      else resolve({ value, child });
    };
    const onMessage = (message: unknown) => {
      const reply = message as ChildReply;
      if (reply.kind === 'result') finish(undefined, reply.value);
      else if (reply.kind === 'error') {
        child.kill('SIGKILL');
        finish(new Error(reply.message));
      }
    };
    child.on('message', onMessage);
    child.once('error', (error) => finish(error));
    child.once('exit', (code, signal) =>
      finish(new Error(`${modulePath} exited (${signal ?? `code ${code}`}) before answering`)),
    );
    child.send(request as object);
  });
}

/** Ends a child and waits until it has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Child side: answers one request with `handle`'s result, or with the error it threw. */
export function answerParent(handle: (request: unknown) => Promise<unknown>): void {
  process.once('message', (request: unknown) => {
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
