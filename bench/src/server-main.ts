/** Child-process entry: starts one server on loopback, reports where it listens, serves until stopped. */
import { answerParent } from '@dataworkz/measure';
import type { ServerKind } from './servers/server-info.js';

const apiKey = 'bench-key';

answerParent(async (request) => {
  const { kind, target } = request as { kind: ServerKind; target?: string };
  // Each kind is imported only when asked for, so a server process loads nothing it does not serve.
  const server =
    kind === 'stream-source'
      ? await (await import('./servers/stream-source.js')).startStreamSource(apiKey)
      : kind === 'emulator' || kind === 'emulator-word-vectors' || kind === 'emulator-lexical'
        ? await (await import('./servers/emulator.js')).startBenchEmulator(apiKey, {
            ranking:
              kind === 'emulator-lexical'
                ? 'lexical'
                : kind === 'emulator-word-vectors'
                  ? 'word-vectors'
                  : 'default',
          })
        : kind === 'recorder' && target
          ? await (await import('./servers/recorder.js')).startBenchRecorder(apiKey, target)
          : undefined;
  if (!server) throw new Error(`unknown server kind: ${String(kind)}`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
  return server.info;
});
