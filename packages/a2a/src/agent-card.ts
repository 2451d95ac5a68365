import { type AgentCard, type Dataworkz, NotFoundError, type RequestOptions } from '@dataworkz/client';

/**
 * An agent's A2A card from `agent-card.json`, falling back to the legacy `agent.json` when the
 * deployment answers 404 there; sent with the client's credential, retries and time-out.
 */
export async function getAgentCard(
  dw: Dataworkz,
  agentId: string,
  options?: RequestOptions,
): Promise<AgentCard> {
  try {
    return await dw.agents.card(agentId, options);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return dw.agents.card(agentId, { ...options, legacy: true });
  }
}
