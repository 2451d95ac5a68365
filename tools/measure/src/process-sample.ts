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
