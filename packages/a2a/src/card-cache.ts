import type { AgentCard, Dataworkz } from '@dataworkz/client';

// Cards per client and agent: a card rarely changes and costs a request. Every card read goes in,
// so `protocol: 'auto'` follows a card the caller read with getAgentCard too.
const cards = new WeakMap<Dataworkz, Map<string, AgentCard>>();

/** The card last read for this client and agent, if any. */
export function knownCard(dw: Dataworkz, agentId: string): AgentCard | undefined {
  return cards.get(dw)?.get(agentId);
}

export function rememberCard(dw: Dataworkz, agentId: string, card: AgentCard): void {
  const perAgent = cards.get(dw) ?? new Map<string, AgentCard>();
  perAgent.set(agentId, card);
  cards.set(dw, perAgent);
}
