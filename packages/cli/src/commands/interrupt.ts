import { ExitCode } from '../exit-codes.js';

/** Thrown when Ctrl-C stopped a call: the CLI exits with the "interrupted" code. */
class InterruptedError extends Error {
  override name = 'AbortError';
  constructor() {
    super('Interrupted');
  }
}

/**
 * Runs `work` with a signal that Ctrl-C aborts, so the request or stream closes before the CLI exits
 * (with code 130). A second Ctrl-C exits at once.
 */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let presses = 0;
  const onSigint = () => {
    presses += 1;
    if (presses > 1) process.exit(ExitCode.interrupted);
    controller.abort(new InterruptedError());
  };
  process.on('SIGINT', onSigint);
  try {
    return await work(controller.signal);
  } catch (error) {
    if (controller.signal.aborted) throw new InterruptedError();
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
