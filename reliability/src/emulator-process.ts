import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import type { EmulatorOptions } from '@dataworkz/emulator';
import type { ChildMemory } from './emulator-child.js';

// Built code in both cases: tests run this file from src, the load script from dist.
const CHILD = new URL('../dist/emulator-child.js', import.meta.url);
const ANSWER_TIMEOUT_MS = 30_000;

/** An emulator running in a child process (built code), reachable over loopback. */
export class EmulatorProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly apiKey: string,
  ) {}

  /** The child's process id, for reading /proc. */
  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** Whether the child is still running. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  static async start(options: EmulatorOptions): Promise<EmulatorProcess> {
    const child = fork(CHILD, [JSON.stringify(options)], { execArgv: ['--expose-gc'], stdio: 'inherit' });
    const ready = (await reply(child, 'ready')) as { url: string; apiKey: string };
    return new EmulatorProcess(child, ready.url, ready.apiKey);
  }

  /** The child's memory after a forced collection, and its open streams. */
  async memory(): Promise<ChildMemory> {
    this.child.send('memory');
    return (await reply(this.child, 'memory')) as ChildMemory;
  }

  async close(): Promise<void> {
    if (!this.running) return;
    const exited = once(this.child, 'exit');
    this.child.send('close');
    const timer = setTimeout(() => this.child.kill(), ANSWER_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
}

function reply(child: ChildProcess, type: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`the emulator process sent no ${type} message`)),
      ANSWER_TIMEOUT_MS,
    );
    const onMessage = (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type === type) done(undefined, message);
    };
    const onExit = (code: number | null) => done(new Error(`the emulator process exited (code ${code})`));
    function done(error: Error | undefined, message?: unknown) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(message);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}
