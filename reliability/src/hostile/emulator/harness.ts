import type { EmulatorOptions } from '@dataworkz/emulator';
import { EmulatorProcess } from '../../emulator-process.js';
import { type PlainRequest, plainRequest } from '../../http-request.js';
import type { CaseFigures } from '../../runner/case.js';
import { openDescriptors, sampleProcess, waitFor } from '../../runner/process-sample.js';

export const KEY = 'hostile-key-0123456789';

/** What an attack concluded, before the process's own figures are added. */
export interface Verdict {
  pass: boolean;
  note: string;
  answerMs?: number;
  extra?: string;
}

/**
 * Starts an emulator process of its own for one case (so its peak RSS and descriptors are the case's),
 * runs the attack, then samples the process: a process that died fails the case whatever the attack saw.
 */
export async function againstEmulator(
  options: EmulatorOptions,
  attack: (emu: EmulatorProcess) => Promise<Verdict>,
): Promise<CaseFigures> {
  const emu = await EmulatorProcess.start({ apiKeys: [KEY], ...options }, { captureOutput: true });
  try {
    const before = openDescriptors(emu.pid);
    const verdict = await attack(emu);
    // The server closes each connection just after its answer: give that a moment, bounded.
    if (before !== undefined)
      await waitFor(
        () => openDescriptors(emu.pid) ?? 0,
        (n) => n <= before,
        1000,
        20,
      );
    const after = sampleProcess(emu.pid);
    const alive = emu.running;
    return {
      outcome: verdict.pass && alive ? 'pass' : 'fail',
      note: alive ? verdict.note : `the emulator process died (${verdict.note})`,
      ...(verdict.answerMs !== undefined ? { answerMs: verdict.answerMs } : {}),
      ...(after.peakRss !== undefined ? { peakRss: after.peakRss } : {}),
      fds: { before, after: after.fds },
      ...(verdict.extra !== undefined ? { extra: verdict.extra } : {}),
    };
  } finally {
    await emu.close(5000);
  }
}

/** Runs `work` and measures it. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** A request with the key, on a connection of its own; a network failure becomes status 0 with its code. */
export async function request(
  emu: { url: string },
  path: string,
  init: PlainRequest = {},
): Promise<{ status: number; text: string; json: unknown }> {
  try {
    const answer = await plainRequest(`${emu.url}${path}`, {
      ...init,
      headers: { authorization: `SSWS ${KEY}`, ...init.headers },
    });
    let json: unknown;
    try {
      json = JSON.parse(answer.text);
    } catch {
      json = undefined;
    }
    return { status: answer.status, text: answer.text, json };
  } catch (error) {
    return {
      status: 0,
      text: (error as NodeJS.ErrnoException).code ?? (error as Error).message,
      json: undefined,
    };
  }
}

/** Resident and heap growth between two forced collections, as `heap +x MB, rss +y MB`. */
export function growth(before: { rss: number; heapUsed: number }, after: { rss: number; heapUsed: number }) {
  const sign = (bytes: number) => `${bytes >= 0 ? '+' : ''}${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `after GC: heap ${sign(after.heapUsed - before.heapUsed)}, rss ${sign(after.rss - before.rss)}`;
}

/** Runs `count` tasks, `parallel` at a time. */
export async function inBatches(count: number, parallel: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}
