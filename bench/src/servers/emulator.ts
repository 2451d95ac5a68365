import { seed, startEmulator } from '@dataworkz/emulator';
import type { ServerInfo } from './server-info.js';

/**
 * The emulator as users start it, with the seeded ids the load and call sections address; `ranking`:
 * `'word-vectors'` for the word vectors and BM25 without the sentence encoder (the ranking of 0.2),
 * `'lexical'` for BM25 alone (`embed: false`), the ranking of earlier versions.
 */
export async function startBenchEmulator(
  apiKey: string,
  { ranking = 'default' }: { ranking?: 'default' | 'word-vectors' | 'lexical' } = {},
): Promise<{ info: ServerInfo; close(): Promise<void> }> {
  const emulator = await startEmulator({
    port: 0,
    host: '127.0.0.1',
    apiKeys: [apiKey],
    ...(ranking === 'lexical'
      ? { embed: false }
      : ranking === 'word-vectors'
        ? { embed: 'word-vectors' }
        : {}),
  });
  return {
    info: {
      url: emulator.url,
      apiKey,
      systemId: seed.systems.productDocs.systemId,
      llmProviderId: seed.llms.productDocsSystem,
      agentId: seed.agents.orderStatus.agentId,
      systems: {
        [seed.systems.productDocs.name]: seed.systems.productDocs.systemId,
        [seed.systems.supportKb.name]: seed.systems.supportKb.systemId,
      },
    },
    close: () => emulator.close(),
  };
}
