import { seed, startEmulator } from '@dataworkz/emulator';
import type { ServerInfo } from '../server-main.js';

/** The emulator as users start it, with the seeded ids the load and call sections address. */
export async function startBenchEmulator(
  apiKey: string,
): Promise<{ info: ServerInfo; close(): Promise<void> }> {
  const emulator = await startEmulator({ port: 0, host: '127.0.0.1', apiKeys: [apiKey] });
  return {
    info: {
      url: emulator.url,
      apiKey,
      systemId: seed.systems.productDocs.systemId,
      llmProviderId: seed.llms.productDocsSystem,
      agentId: seed.agents.orderStatus.agentId,
    },
    close: () => emulator.close(),
  };
}
