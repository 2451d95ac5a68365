import { type AgentCard, type Dataworkz, InvalidParameterError } from '@dataworkz/client';
import { getAgentCard } from './agent-card.js';
import { knownCard } from './card-cache.js';
import { JsonRpcError } from './errors.js';
import { toRunError } from './failure.js';
import { type A2AProtocol, selectProtocol, UnsupportedProtocolError } from './protocol/select.js';
import type { ProtocolVersion } from './sdk/agent-transport.js';

/** The agent's card, read once per client and agent (a failed read is not kept). */
export async function cachedCard(dw: Dataworkz, agentId: string, signal: AbortSignal): Promise<AgentCard> {
  return knownCard(dw, agentId) ?? getAgentCard(dw, agentId, { signal });
}

/** Checks a `protocol` option before anything is sent. */
export function checkProtocol(protocol: unknown): A2AProtocol {
  if (protocol === undefined) return 'auto';
  if (protocol === 'auto' || protocol === '0.3' || protocol === '1.0') return protocol;
  throw new InvalidParameterError('protocol', "protocol must be 'auto', '0.3' or '1.0'.");
}

/**
 * Sends a request in the version to speak: the one forced, else the one the agent's card (if already
 * read) offers, v1.0 first, else v0.3, as the service speaks today (reading the card first would cost
 * every first call a request). An agent that refuses the guess as an unknown method (or v1.0's
 * "version not supported") ran nothing: its card is read then, and the request sent again in the
 * version it offers. `send` is given the version each time; the refusal stands when the card offers no other.
 */
export async function sendInVersion<T>(
  dw: Dataworkz,
  agentId: string,
  protocol: A2AProtocol,
  signal: AbortSignal,
  send: (version: ProtocolVersion) => Promise<T>,
): Promise<T> {
  if (protocol !== 'auto') return send(protocol);
  const card = knownCard(dw, agentId);
  const guess: ProtocolVersion = card ? versionOffered(card) : '0.3';
  try {
    return await send(guess);
  } catch (error) {
    if (!refusesVersion(toRunError(error, signal))) throw error;
    const offered = await cachedCard(dw, agentId, signal).then(versionOffered, () => guess);
    if (offered === guess) throw error;
    return send(offered);
  }
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

function refusesVersion(error: unknown): boolean {
  return (
    error instanceof JsonRpcError && (error.code === METHOD_NOT_FOUND || error.code === VERSION_NOT_SUPPORTED)
  );
}
