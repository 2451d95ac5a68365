import { readdirSync, readFileSync } from 'node:fs';

/** Open file descriptors of a process (Linux); undefined where /proc is not there or the process is gone. */
export function openDescriptors(pid: number): number | undefined {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}

/**
 * A process's peak resident set size since it started, in bytes: Linux's VmHWM, its own high-water
 * mark (`resourceUsage().maxRSS` of a fresh process also counts the pages of the process that forked it).
 * Undefined where /proc is not there or the process is gone.
 */
export function peakRss(pid: number | 'self'): number | undefined {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Polls `read` every `everyMs` until `done` holds or `limitMs` passes; returns the last value and
 * whether the condition was met. Bounded, so a condition that never holds ends the wait instead of
 * hanging it. For what the kernel alone knows (a descriptor count): where an event says it, wait for it.
 */
export async function waitFor<T>(
  read: () => T,
  done: (value: T) => boolean,
  limitMs: number,
  everyMs = 100,
): Promise<{ value: T; met: boolean }> {
  const started = performance.now();
  for (;;) {
    const value = read();
    if (done(value)) return { value, met: true };
    if (performance.now() - started >= limitMs) return { value, met: false };
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
