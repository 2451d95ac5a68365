import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import {
  type AgentCard,
  type Dataworkz,
  NotFoundError,
  type RequestOptions,
  serializePath,
} from '@dataworkz/client';
import { rememberCard } from './card-cache.js';

type Normalize = (card: unknown) => unknown;

function isV1Card(card: unknown): boolean {
  const record = card as { supportedInterfaces?: unknown } | null;
  return typeof record === 'object' && record !== null && Array.isArray(record.supportedInterfaces);
}

/**
 * The SDK's card resolver, reading through the client's own card call (its credential, retries,
 * time-out and typed errors). Two of the resolver's habits are worked around here: it joins the path
 * to the base with `new URL`, which drops the base's last segment (the agent id), so it is given the
 * whole card URL and an empty path; and it rewrites any card whose security schemes lack `type` as a
 * v0.3 protobuf card, dropping what v0.3 does not know, which a v1.0 card (`supportedInterfaces`,
 * schemes keyed by kind) is not: such a card passes as it came.
 */
function resolverFor(dw: Dataworkz, agentId: string, legacy: boolean, options?: RequestOptions) {
  const resolver = new DefaultAgentCardResolver({
    fetchImpl: async () => {
      const { data, response } = await dw.agents.card(agentId, { ...options, legacy }).withResponse();
      return new Response(JSON.stringify(data), { status: response.status, headers: response.headers });
    },
  });
  // The normaliser is private in the SDK's types; it is replaced on this instance only.
  const sdk = resolver as unknown as { normalizeAgentCard: Normalize };
  const normalize = sdk.normalizeAgentCard.bind(resolver);
  sdk.normalizeAgentCard = (card) => (isV1Card(card) ? card : normalize(card));
  return resolver;
}

// What the resolver is told it reads: the request itself is the client's card call above.
function cardUrl(dw: Dataworkz, agentId: string, legacy: boolean): string {
  const file = legacy ? 'agent.json' : 'agent-card.json';
  return `${dw.baseUrl}${serializePath('/api/agents/v1/a2a/{agentId}/.well-known/', { agentId })}${file}`;
}

/**
 * An agent's A2A card from `agent-card.json`, falling back to the legacy `agent.json` when the
 * deployment answers 404 there; read by the A2A SDK's resolver with the client's credential, retries
 * and time-out. The card is kept for the client: `protocol: 'auto'` follows it from then on.
 */
export async function getAgentCard(
  dw: Dataworkz,
  agentId: string,
  options?: RequestOptions,
): Promise<AgentCard> {
  const read = (legacy: boolean) =>
    resolverFor(dw, agentId, legacy, options).resolve(
      cardUrl(dw, agentId, legacy),
      '',
    ) as Promise<unknown> as Promise<AgentCard>;
  let card: AgentCard;
  try {
    card = await read(false);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    card = await read(true);
  }
  rememberCard(dw, agentId, card);
  return card;
}
