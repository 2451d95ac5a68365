import { type EmulatorOptions, startEmulator } from '@dataworkz/emulator';

/**
 * The emulator in a process of its own, so its memory is measured apart from the load it serves.
 * Options arrive as JSON in argv; the parent asks for `memory` and `close` over IPC.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as EmulatorOptions;
const emu = await startEmulator(options);

export interface ChildMemory {
  rss: number;
  heapUsed: number;
  openStreams: number;
  recordedRequests: number;
}

process.on('message', (message: unknown) => {
  if (message === 'memory') {
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send?.({
      type: 'memory',
      rss,
      heapUsed,
      openStreams: emu.openStreams,
      recordedRequests: emu.requests.length,
    });
  } else if (message === 'close') {
    void emu.close().then(() => process.exit(0));
  }
});
process.send?.({ type: 'ready', url: emu.url, apiKey: emu.apiKey });
