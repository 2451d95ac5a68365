import { getAgentCard } from '@dataworkz/a2a';
import { type ClientOptions, Dataworkz } from '@dataworkz/client';
import { seed } from '@dataworkz/emulator';

/**
 * A client of an emulator; under '1.0' it has read every agent's card first (an emulator started with
 * `a2aVersion: '1.0'` serves the v1.0 card), so `protocol: 'auto'` speaks v1.0 from the first request.
 * The emulator serves both versions: a client that has not read a card speaks v0.3 and is served.
 */
export async function clientSpeaking(
  version: '0.3' | '1.0',
  baseUrl: string,
  apiKey: string,
  options: Omit<ClientOptions, 'baseUrl' | 'apiKey'> = {},
): Promise<Dataworkz> {
  const dw = new Dataworkz({ baseUrl, apiKey, maxRetries: 0, ...options });
  if (version === '1.0') {
    for (const agent of Object.values(seed.agents)) await getAgentCard(dw, agent.agentId);
  }
  return dw;
}
