import { type AgentCard, type Dataworkz, InvalidParameterError } from '@dataworkz/client';
import { getAgentCard } from './agent-card.js';
import { JsonRpcError } from './errors.js';
import { type A2AProtocol, selectProtocol, UnsupportedProtocolError } from './protocol/select.js';
import { type ProtocolVersion, type Wire, wireFor } from './protocol/wire.js';

// Cards per client and agent: a card rarely changes and costs a request.
const cards = new WeakMap<Dataworkz, Map<string, AgentCard>>();

/** The agent's card, read once per client and agent (a failed read is not kept). */
export async function cachedCard(dw: Dataworkz, agentId: string, signal: AbortSignal): Promise<AgentCard> {
  const known = cards.get(dw)?.get(agentId);
  if (known) return known;
  const card = await getAgentCard(dw, agentId, { signal });
  const perAgent = cards.get(dw) ?? new Map<string, AgentCard>();
  perAgent.set(agentId, card);
  cards.set(dw, perAgent);
  return card;
}

/** Checks a `protocol` option before anything is sent. */
export function checkProtocol(protocol: unknown): A2AProtocol {
  if (protocol === undefined) return 'auto';
  if (protocol === 'auto' || protocol === '0.3' || protocol === '1.0') return protocol;
  throw new InvalidParameterError('protocol', "protocol must be 'auto', '0.3' or '1.0'.");
}

/**
 * The wire to speak with an agent: the version forced, else the one its card (if already read) offers,
 * v1.0 first. Without a card at hand, v0.3, as the service speaks today: reading the card first would
 * cost every first call a request; `refusesVersion` tells when to read it after all.
 */
export function knownWire(dw: Dataworkz, agentId: string, protocol: A2AProtocol): Wire {
  if (protocol !== 'auto') return wireFor(protocol);
  const card = cards.get(dw)?.get(agentId);
  return card ? wireFor(versionOffered(card)) : wireFor('0.3');
}

function versionOffered(card: AgentCard): ProtocolVersion {
  try {
    return selectProtocol(card, 'auto').version;
  } catch (error) {
    // A card that names no version at all is the service's own: v0.3.
    if (error instanceof UnsupportedProtocolError && error.offered.length === 0) return '0.3';
    throw error;
  }
}

// What a server answers a request in a version it does not speak: an unknown method (v0.3's names
// are not v1.0's) or, from v1.0 servers, "version not supported".
const METHOD_NOT_FOUND = -32601;
const VERSION_NOT_SUPPORTED = -32009;

/** Whether an error says the agent does not speak the version the request was in. */
export function refusesVersion(error: unknown): boolean {
  return (
    error instanceof JsonRpcError && (error.code === METHOD_NOT_FOUND || error.code === VERSION_NOT_SUPPORTED)
  );
}

/**
 * After a refusal of the version guessed: the version the agent's card offers, read now, or
 * undefined when that is the version already refused (the refusal stands then).
 */
export async function wireFromCard(
  dw: Dataworkz,
  agentId: string,
  refused: Wire,
  signal: AbortSignal,
): Promise<Wire | undefined> {
  const version = versionOffered(await cachedCard(dw, agentId, signal));
  return version === refused.version ? undefined : wireFor(version);
}
