import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import type { EmulatorOptions } from '@dataworkz/emulator';
import type { ChildMemory } from './emulator-child.js';

// Built code in both cases: tests run this file from src, the load script from dist.
const CHILD = new URL('../dist/emulator-child.js', import.meta.url);
const ANSWER_TIMEOUT_MS = 30_000;

export interface ProcessSettings {
  /** Keep the child's stdout and stderr (see `output`) instead of passing them through. */
  captureOutput?: boolean;
}

/** Every child started and not yet closed, so a runner can end what a case left behind. */
const live = new Set<EmulatorProcess>();

/** An emulator running in a child process (built code), reachable over loopback. */
export class EmulatorProcess {
  private constructor(
    private readonly child: ChildProcess,
    private readonly captured: { text: string },
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

  /** What the child wrote on stdout and stderr, when started with `captureOutput`. */
  output(): string {
    return this.captured.text;
  }

  static async start(options: EmulatorOptions, settings: ProcessSettings = {}): Promise<EmulatorProcess> {
    const child = fork(CHILD, [JSON.stringify(options)], {
      execArgv: ['--expose-gc'],
      stdio: settings.captureOutput ? ['ignore', 'pipe', 'pipe', 'ipc'] : 'inherit',
    });
    const captured = { text: '' };
    const keep = (chunk: Buffer) => {
      captured.text += chunk.toString('utf8');
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    // A child that dies mid-message must not take the parent with it.
    child.on('error', () => {});
    try {
      const ready = (await reply(child, 'ready')) as { url: string; apiKey: string };
      const started = new EmulatorProcess(child, captured, ready.url, ready.apiKey);
      live.add(started);
      return started;
    } catch (error) {
      child.kill('SIGKILL');
      const reason = captured.text.trim();
      throw new Error(reason ? `${(error as Error).message}: ${reason}` : (error as Error).message);
    }
  }

  /** Ends every emulator process still running (a runner's cleanup after a case). */
  static async closeAll(graceMs = ANSWER_TIMEOUT_MS): Promise<void> {
    await Promise.all([...live].map((emu) => emu.close(graceMs)));
  }

  /** The child's memory after a forced collection, and its open streams. */
  async memory(): Promise<ChildMemory> {
    this.child.send('memory');
    return (await reply(this.child, 'memory')) as ChildMemory;
  }

  /** Asks the child to close; kills it if it has not exited after `graceMs` (it may be stuck). */
  async close(graceMs = ANSWER_TIMEOUT_MS): Promise<void> {
    live.delete(this);
    if (!this.running) return;
    const exited = once(this.child, 'exit');
    // A child that is dying already cannot take the message; the kill below ends it either way.
    if (this.child.connected) this.child.send('close', () => {});
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
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
