/** Child-process entry: starts one server on loopback, reports where it listens, serves until stopped. */
import { answerParent } from './child.js';

export type ServerKind = 'emulator' | 'emulator-word-vectors' | 'emulator-lexical' | 'stream-source';

export interface ServerInfo {
  readonly url: string;
  readonly apiKey: string;
  /** The emulator's seeded ids, for building request paths. */
  readonly systemId?: string;
  readonly llmProviderId?: string;
  readonly agentId?: string;
  /** The emulator's QnA systems, name to id. */
  readonly systems?: Readonly<Record<string, string>>;
}

const apiKey = 'bench-key';

answerParent(async (request) => {
  const kind = (request as { kind: ServerKind }).kind;
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
        : undefined;
  if (!server) throw new Error(`unknown server kind: ${String(kind)}`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
  return server.info;
});
