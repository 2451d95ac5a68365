import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import {
  type AgentCard,
  type Dataworkz,
  InvalidParameterError,
  NotFoundError,
  type Redactor,
  type RequestOptions,
  serializePath,
  serializeQuery,
} from '@dataworkz/client';
import { findProvidedValuesUri } from '@dataworkz/context-values';
import type { A2ATask } from './a2a-types.js';
import { JsonRpcError } from './errors.js';
import { toRunError } from './failure.js';
import {
  type A2AProtocol,
  type ProtocolVersion,
  selectProtocol,
  UnsupportedProtocolError,
} from './protocol.js';
import { type SdkFetchOptions, sdkFetch } from './sdk/fetch.js';
import { type AgentTransport, type TaskParams, transportFor } from './sdk/transport.js';

// Cards per client and agent: a card rarely changes and costs a request. Every card read goes in,
// so `protocol: 'auto'` follows a card the caller read with getAgentCard too.
const cards = new WeakMap<Dataworkz, Map<string, AgentCard>>();

// What a server answers a request in a version it does not speak: an unknown method (v0.3's names
// are not v1.0's) or, from v1.0 servers, "version not supported".
const WRONG_VERSION = [-32601, -32009];

/**
 * One agent as this package sees it: its endpoint, its card (kept per client), its provided-values
 * URI, the A2A version chosen for it, and the SDK transport for each call, made through the client's
 * `authorizedFetch` (see `sdkFetch`).
 */
export class AgentLink {
  readonly dw: Dataworkz;
  readonly agentId: string;
  readonly protocol: A2AProtocol;
  /** `{baseUrl}/api/agents/v1/a2a/{agentId}/stream`: every A2A call of the agent goes here. */
  readonly #endpoint: string;
  /** The endpoint with the message's `llmId` and `properties`: where streams go. */
  readonly #streamEndpoint: string;
  /** The version spoken last: a run's resubscriptions and task reads speak what its message did. */
  version: ProtocolVersion = '0.3';

  constructor(
    dw: Dataworkz,
    agentId: string,
    protocol?: unknown,
    query: Record<string, string | undefined> = {},
  ) {
    this.dw = dw;
    this.agentId = agentId;
    if (protocol !== undefined && protocol !== 'auto' && protocol !== '0.3' && protocol !== '1.0') {
      throw new InvalidParameterError('protocol', "protocol must be 'auto', '0.3' or '1.0'.");
    }
    this.protocol = protocol ?? 'auto';
    this.#endpoint = `${dw.baseUrl}${serializePath('/api/agents/v1/a2a/{agentId}/stream', { agentId })}`;
    const search = serializeQuery(query);
    this.#streamEndpoint = search ? `${this.#endpoint}?${search}` : this.#endpoint;
  }

  /** The card last read for this client and agent, if any. */
  get knownCard(): AgentCard | undefined {
    return cards.get(this.dw)?.get(this.agentId);
  }

  /** The agent's card, read once per client and agent (a failed read is not kept). */
  async card(signal: AbortSignal): Promise<AgentCard> {
    return this.knownCard ?? this.readCard({ signal });
  }

  /**
   * The card from `agent-card.json`, else from the legacy `agent.json` when the deployment answers 404
   * there; read by the SDK's resolver through the client's card call, and kept for the client.
   */
  async readCard(options?: RequestOptions): Promise<AgentCard> {
    let card: AgentCard;
    try {
      card = await this.#resolve(false, options);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      card = await this.#resolve(true, options);
    }
    cards.set(this.dw, (cards.get(this.dw) ?? new Map()).set(this.agentId, card));
    return card;
  }

  /**
   * Two habits of the SDK's resolver are worked around: it joins the path to the base with `new URL`,
   * which drops the base's last segment (the agent id), so it is given the whole card URL and an empty
   * path; and it rewrites any card whose security schemes lack `type` as a v0.3 protobuf card, dropping
   * what v0.3 does not know, which a v1.0 card (`supportedInterfaces`) is not: such a card passes as it came.
   */
  #resolve(legacy: boolean, options: RequestOptions | undefined): Promise<AgentCard> {
    const { dw, agentId } = this;
    const resolver = new DefaultAgentCardResolver({
      fetchImpl: async () => {
        const { data, response } = await dw.agents.card(agentId, { ...options, legacy }).withResponse();
        return new Response(JSON.stringify(data), { status: response.status, headers: response.headers });
      },
    });
    // The normaliser is private in the SDK's types; it is replaced on this instance only.
    const sdk = resolver as unknown as { normalizeAgentCard: (card: unknown) => unknown };
    const normalize = sdk.normalizeAgentCard.bind(resolver);
    sdk.normalizeAgentCard = (card) =>
      Array.isArray((card as { supportedInterfaces?: unknown } | null)?.supportedInterfaces)
        ? card
        : normalize(card);
    // What the resolver is told it reads: the request itself is the client's card call above.
    const path = serializePath('/api/agents/v1/a2a/{agentId}/.well-known/', { agentId });
    const url = `${dw.baseUrl}${path}${legacy ? 'agent.json' : 'agent-card.json'}`;
    return resolver.resolve(url, '') as Promise<unknown> as Promise<AgentCard>;
  }

  /** The provided-values extension URI the card advertises. */
  async providedValuesUri(signal: AbortSignal): Promise<string> {
    const uri = findProvidedValuesUri(await this.card(signal));
    if (!uri) {
      throw new InvalidParameterError(
        'extensionUri',
        'The agent card advertises no provided-values extension; pass extensionUri to send context values.',
      );
    }
    return uri;
  }

  /** The SDK transport for one call in the version chosen: a stream's, or a task call's. */
  transport(fetch: SdkFetchOptions, stream = false): AgentTransport {
    return transportFor(
      this.version,
      stream ? this.#streamEndpoint : this.#endpoint,
      sdkFetch(this.dw, fetch),
    );
  }

  /**
   * Makes a call in the version to speak: the one forced, else the one the card (if already read)
   * offers, v1.0 first, else v0.3, as the service speaks today (reading the card first would cost every
   * first call a request). An agent that refuses the guess as an unknown method (or v1.0's "version not
   * supported") ran nothing: its card is read then, and the call made again in the version it offers.
   */
  async send<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
    if (this.protocol !== 'auto') {
      this.version = this.protocol;
      return call();
    }
    const guess = this.knownCard ? versionOffered(this.knownCard) : '0.3';
    this.version = guess;
    try {
      return await call();
    } catch (error) {
      const refusal = toRunError(error, signal);
      if (!(refusal instanceof JsonRpcError && WRONG_VERSION.includes(refusal.code))) throw error;
      const offered = await this.card(signal).then(versionOffered, () => guess);
      if (offered === guess) throw error;
      this.version = offered;
      return call();
    }
  }

  /** `tasks/get` or `tasks/cancel` in the version chosen, its errors typed and redacted. */
  async task(
    kind: 'getTask' | 'cancelTask',
    params: TaskParams,
    signal: AbortSignal,
    timeout?: number,
  ): Promise<A2ATask> {
    let redact: Redactor = this.dw.redact;
    const onResponse = (latest: Redactor) => {
      redact = latest;
    };
    try {
      return await this.transport({ operation: kind, timeout, onResponse })[kind](params, { signal });
    } catch (error) {
      throw redact(toRunError(error, signal, "The agent's response"));
    }
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

/**
 * An agent's A2A card from `agent-card.json`, falling back to the legacy `agent.json` when the
 * deployment answers 404 there; read by the A2A SDK's resolver with the client's credential, retries
 * and time-out. The card is kept for the client: `protocol: 'auto'` follows it from then on.
 */
export function getAgentCard(dw: Dataworkz, agentId: string, options?: RequestOptions): Promise<AgentCard> {
  return new AgentLink(dw, agentId).readCard(options);
}
