import { type Emulator, type EmulatorOptions, startEmulator } from '@dataworkz/emulator';

/**
 * The emulator in a process of its own, so its memory is measured apart from the load it serves.
 * Options arrive as JSON in argv; the parent asks for `memory` and `close` over IPC.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as EmulatorOptions;
let emu: Emulator;
try {
  emu = await startEmulator(options);
} catch (error) {
  // The reason is all the parent needs: it reads it from stderr when the start fails.
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}

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
