import { existsSync } from 'node:fs';
import { type EmulatorOptions, seed } from '@dataworkz/emulator';
import { openDescriptors, rawRequest, waitFor } from '@dataworkz/measure';
import { expect } from 'vitest';
import { EmulatorProcess } from '../../src/emulator-process.js';

/** `pnpm test` runs the small counts; HOSTILE_SIZE=full runs the counts the cases were written for. */
export const full = process.env.HOSTILE_SIZE === 'full';
/** Whether this system shows a process's descriptors (Linux's /proc). */
export const hasProc = existsSync('/proc/self/fd');
export const KEY = 'hostile-key-0123456789';

/** A request with the key, on a connection of its own; a network failure becomes status 0 with its code. */
export async function request(
  emu: { url: string },
  path: string,
  init: Parameters<typeof rawRequest>[2] = {},
): Promise<{ status: number; text: string }> {
  try {
    return await rawRequest(emu.url, path, {
      timeoutMs: 30_000,
      ...init,
      headers: { authorization: `SSWS ${KEY}`, ...init.headers },
    });
  } catch (error) {
    return { status: 0, text: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
}

/**
 * Starts an emulator process of its own for one case, so the descriptors it holds are the case's, and
 * runs the attack. Afterwards the process must be alive and hold no more descriptors than before it
 * (a wait bounded well past the server's own time-outs; its length is not asserted).
 */
export async function againstEmulator(
  options: EmulatorOptions,
  attack: (emu: EmulatorProcess, descriptors: () => number) => Promise<void>,
): Promise<void> {
  const emu = await EmulatorProcess.start({ apiKeys: [KEY], ...options }, { captureOutput: true });
  try {
    // A first search waits for the sentence encoder, whose weights load in the background from
    // start-up: the files it reads meanwhile would otherwise come and go between the counts.
    await request(emu, `/api/qna/v1/systems/${seed.systems.supportKb.systemId}/search?query=returns`);
    const descriptors = () => openDescriptors(emu.pid) ?? Number.NaN;
    const baseline = descriptors();
    await attack(emu, descriptors);
    expect(emu.running, `the emulator process died: ${emu.output()}`).toBe(true);
    if (hasProc) {
      const back = await waitFor(descriptors, (n) => n <= baseline, 60_000, 50);
      expect(back.value, `descriptors after the case (before it: ${baseline})`).toBeLessThanOrEqual(baseline);
    }
  } finally {
    await emu.close(5000);
  }
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
