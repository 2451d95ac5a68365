import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '@dataworkz/emulator';
import type { ServerInfo } from './server-info.js';

/** An emulator in record mode in front of `target`, writing its cassette to a temporary folder. */
export async function startBenchRecorder(
  apiKey: string,
  target: string,
): Promise<{ info: ServerInfo; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cassette-'));
  const emulator = await startEmulator({
    port: 0,
    host: '127.0.0.1',
    record: target,
    cassette: join(dir, 'bench.har'),
  });
  return {
    info: { url: emulator.url, apiKey },
    close: async () => {
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
