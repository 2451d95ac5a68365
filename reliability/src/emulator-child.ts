import { type Emulator, type EmulatorOptions, startEmulator } from '@dataworkz/emulator';
import { answerParent } from '@dataworkz/measure';

/** What the child reports when asked for `memory`: after a forced collection. */
export interface ChildMemory {
  rss: number;
  heapUsed: number;
  openStreams: number;
  recordedRequests: number;
}

/**
 * The emulator in a process of its own, so its memory and descriptors are measured apart from the
 * load it serves. The parent asks for `{ start: options }`, then `memory`; SIGTERM closes it.
 */
let emu: Emulator | undefined;
answerParent(async (request) => {
  if (request === 'memory') {
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    return {
      rss,
      heapUsed,
      openStreams: emu?.openStreams ?? 0,
      recordedRequests: emu?.requests.length ?? 0,
    } satisfies ChildMemory;
  }
  emu = await startEmulator((request as { start: EmulatorOptions }).start);
  return { url: emu.url, apiKey: emu.apiKey };
});
process.once('SIGTERM', () => {
  void (emu?.close() ?? Promise.resolve()).then(() => process.exit(0));
});
