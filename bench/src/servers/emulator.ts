import { seed, startEmulator } from '@dataworkz/emulator';
import type { ServerInfo } from '../server-main.js';

/**
 * The emulator as users start it, with the seeded ids the load and call sections address; `lexical`:
 * with BM25 retrieval alone (`embed: false`), the ranking of earlier versions.
 */
export async function startBenchEmulator(
  apiKey: string,
  { lexical = false }: { lexical?: boolean } = {},
): Promise<{ info: ServerInfo; close(): Promise<void> }> {
  const emulator = await startEmulator({
    port: 0,
    host: '127.0.0.1',
    apiKeys: [apiKey],
    ...(lexical ? { embed: false } : {}),
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
