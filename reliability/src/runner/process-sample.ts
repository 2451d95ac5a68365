import { readdirSync, readFileSync } from 'node:fs';

/** What /proc says about a process right now (Linux); undefined where /proc is not there or the process is gone. */
export interface ProcessSample {
  /** Open file descriptors. */
  fds: number | undefined;
  /** Resident set size, bytes. */
  rss: number | undefined;
  /** Peak resident set size since the process started (VmHWM), bytes. */
  peakRss: number | undefined;
}

export function sampleProcess(pid: number): ProcessSample {
  return { fds: openDescriptors(pid), ...memory(pid) };
}

export function openDescriptors(pid: number): number | undefined {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}

function memory(pid: number): { rss: number | undefined; peakRss: number | undefined } {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return { rss: undefined, peakRss: undefined };
  }
  const kib = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  };
  return { rss: kib('VmRSS'), peakRss: kib('VmHWM') };
}

/**
 * Polls `read` every `everyMs` until `done` holds or `limitMs` passes; returns the last value and
 * how long it took. Bounded, so a condition that never holds ends the wait instead of hanging it.
 */
export async function waitFor<T>(
  read: () => T,
  done: (value: T) => boolean,
  limitMs: number,
  everyMs = 100,
): Promise<{ value: T; ms: number; met: boolean }> {
  const started = performance.now();
  for (;;) {
    const value = read();
    const ms = performance.now() - started;
    if (done(value)) return { value, ms, met: true };
    if (ms >= limitMs) return { value, ms, met: false };
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
