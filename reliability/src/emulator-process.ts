import type { ChildProcess } from 'node:child_process';
import type { EmulatorOptions } from '@dataworkz/emulator';
import { ask, askChild, isRunning, outputOf, stopChild } from '@dataworkz/measure';
import type { ChildMemory } from './emulator-child.js';

// Built code in every case: the tests run this file from src.
const CHILD = new URL('../dist/emulator-child.js', import.meta.url);
const ANSWER_TIMEOUT_MS = 30_000;

/** An emulator running in a child process (built code), reachable over loopback. */
export class EmulatorProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly apiKey: string,
  ) {}

  /** Starts one; its output is kept (see `output`) when `captureOutput` is set, else passed through. */
  static async start(options: EmulatorOptions, settings: { captureOutput?: boolean } = {}) {
    const { value, child } = await askChild(
      CHILD,
      { start: options },
      {
        timeoutMs: ANSWER_TIMEOUT_MS,
        execArgv: ['--expose-gc'],
        captureOutput: settings.captureOutput ?? false,
      },
    );
    const ready = value as { url: string; apiKey: string };
    return new EmulatorProcess(child, ready.url, ready.apiKey);
  }

  /** The child's process id, for reading /proc. */
  get pid(): number {
    return this.child.pid ?? 0;
  }

  get running(): boolean {
    return isRunning(this.child);
  }

  /** What the child wrote on stdout and stderr, when started with `captureOutput`. */
  output(): string {
    return outputOf(this.child);
  }

  /** The child's memory after a forced collection, and its open streams. */
  async memory(): Promise<ChildMemory> {
    return (await ask(this.child, 'memory', ANSWER_TIMEOUT_MS)) as ChildMemory;
  }

  /** Closes the emulator; kills the child if it has not exited after `graceMs` (it may be stuck). */
  close(graceMs = ANSWER_TIMEOUT_MS): Promise<void> {
    return stopChild(this.child, graceMs);
  }
}
