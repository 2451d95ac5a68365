import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { Measurement, SectionResult } from '../measurement.js';
import type { Call, CallTarget } from './callers.js';
import { cpuPairings, cpuSection, warmUp } from './client-cpu.js';
import { type ReplayingFetch, withReplayingCallers } from './recorded-fetch.js';
import { differenceRows } from './rounds.js';

export interface AllocationsRequest {
  readonly target: CallTarget;
  /** Calls per reading. */
  readonly calls: number;
  readonly readings: number;
}

/** Attempts at a reading no collection ran in, before it is kept as it is (a lower bound). */
const ATTEMPTS = 3;

/**
 * Heap allocated per call with the network taken out, in this process (started with a young
 * generation large enough that no collection need run inside a reading): the growth of the V8 heap
 * over `calls` calls after forced collections, divided by the calls. Subjects take turns.
 */
export function measureAllocations(request: AllocationsRequest): Promise<SectionResult> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('allocations are measured in a process started with --expose-gc');
  return withReplayingCallers(request.target, async (replay, subjects) => {
    const names = [...subjects.keys()];
    for (const call of subjects.values()) await warmUp(replay, call, Math.max(request.calls, 200));
    const collections = countCollections();
    let spoiled = 0;
    const perReading = new Map<string, number[]>(names.map((n) => [n, []]));
    try {
      for (let reading = 0; reading < request.readings; reading++) {
        for (let k = 0; k < names.length; k++) {
          const name = names[(reading + k) % names.length] as string;
          const call = subjects.get(name) as Call;
          const { kib, clean } = await readAllocation(
            replay,
            call,
            request.calls,
            gc,
            collections.sinceStart,
          );
          if (!clean) spoiled++;
          perReading.get(name)?.push(kib);
        }
      }
    } finally {
      collections.stop();
    }
    const metric = `in-process fetch, ${request.readings} readings of ${request.calls.toLocaleString('en-US')} calls: heap allocated per call`;
    const rows: Measurement[] = names.map((name) => ({
      section: cpuSection,
      metric,
      subject: name,
      unit: 'KiB',
      samples: perReading.get(name) ?? [],
    }));
    const differences = differenceRows(
      cpuSection,
      'heap allocated per call, difference per reading',
      'KiB',
      perReading,
      cpuPairings,
    );
    const notes =
      spoiled === 0
        ? []
        : [
            `Heap allocated per call: a collection ran inside ${spoiled} reading(s) at each of ${ATTEMPTS} attempts, ` +
              'so those readings count only what survived it (lower bounds).',
          ];
    return { measurements: [...rows, ...differences], notes };
  });
}

/** KiB per call over one reading, retaken when a collection the reading did not force ran inside it. */
async function readAllocation(
  replay: ReplayingFetch,
  call: Call,
  calls: number,
  gc: () => void,
  collectionsSoFar: () => Promise<number>,
): Promise<{ kib: number; clean: boolean }> {
  for (let attempt = 1; ; attempt++) {
    replay.prepare(calls);
    gc();
    gc();
    const seen = await collectionsSoFar();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < calls; i++) await call();
    const after = process.memoryUsage().heapUsed;
    const clean = (await collectionsSoFar()) === seen;
    if (clean || attempt === ATTEMPTS) return { kib: (after - before) / calls / 1024, clean };
  }
}

/** Counts the collections V8 runs by itself (not those `gc()` forces). */
function countCollections(): { sinceStart: () => Promise<number>; stop: () => void } {
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const flags = (entry as { detail?: { flags?: number } }).detail?.flags ?? 0;
      if ((flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) === 0) count++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    // Entries reach the observer on a later turn of the event loop.
    sinceStart: async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      return count;
    },
    stop: () => observer.disconnect(),
  };
}
