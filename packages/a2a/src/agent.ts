import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import {
  type AgentCard,
  type Dataworkz,
  InvalidParameterError,
  NotFoundError,
  type RequestOptions,
} from '@dataworkz/client';
import { serializePath, serializeQuery } from '@dataworkz/client/internal';
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
import { type AgentTransport, type TaskKind, type TaskParams, transportFor } from './sdk/transport.js';

// Cards per client and agent (a card rarely changes and costs a request), getAgentCard's included.
const cards = new WeakMap<Dataworkz, Map<string, AgentCard>>();

// A request in a version the server does not speak: an unknown method, or v1.0's "version not supported".
const WRONG_VERSION = [-32601, -32009];

/** One agent: its endpoint, its card, the A2A version chosen for it, and an SDK transport per call. */
export class AgentLink {
  readonly protocol: A2AProtocol;
  readonly #endpoint: string;
  /** The endpoint with the message's `llmId` and `properties`. */
  readonly #streamEndpoint: string;
  /** The version spoken last: a run's resubscriptions and task reads speak what its message did. */
  version: ProtocolVersion = '0.3';

  constructor(
    readonly dw: Dataworkz,
    readonly agentId: string,
    protocol?: unknown,
    query: Record<string, string | undefined> = {},
  ) {
    if (!([undefined, 'auto', '0.3', '1.0'] as unknown[]).includes(protocol)) {
      throw new InvalidParameterError('protocol', "protocol must be 'auto', '0.3' or '1.0'.");
    }
    this.protocol = (protocol as A2AProtocol | undefined) ?? 'auto';
    this.#endpoint = `${dw.baseUrl}${serializePath('/api/agents/v1/a2a/{agentId}/stream', { agentId })}`;
    const search = serializeQuery(query);
    this.#streamEndpoint = search ? `${this.#endpoint}?${search}` : this.#endpoint;
  }

  get knownCard(): AgentCard | undefined {
    return cards.get(this.dw)?.get(this.agentId);
  }

  async card(signal: AbortSignal): Promise<AgentCard> {
    return this.knownCard ?? this.readCard({ signal });
  }

  /** The card from `agent-card.json`, else the legacy `agent.json` on a 404; kept for the client. */
  async readCard(options?: RequestOptions): Promise<AgentCard> {
    const card = await this.#resolve(false, options).catch((error: unknown) => {
      if (error instanceof NotFoundError) return this.#resolve(true, options);
      throw error;
    });
    cards.set(this.dw, (cards.get(this.dw) ?? new Map()).set(this.agentId, card));
    return card;
  }

  // The SDK's resolver joins the path with `new URL`, dropping the agent id, so it gets the whole URL and
  // an empty path; it rewrites a card without security scheme `type`s as v0.3, so v1.0 cards skip that.
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

  async providedValuesUri(signal: AbortSignal): Promise<string> {
    const uri = findProvidedValuesUri(await this.card(signal));
    if (uri) return uri;
    const message =
      'The agent card advertises no provided-values extension; pass extensionUri to send context values.';
    throw new InvalidParameterError('extensionUri', message);
  }

  transport(fetch: SdkFetchOptions, stream = false): AgentTransport {
    const endpoint = stream ? this.#streamEndpoint : this.#endpoint;
    return transportFor(this.version, endpoint, sdkFetch(this.dw, fetch));
  }

  /** Makes a call in the version forced, offered by a card read, or else v0.3; a refused guess is retried. */
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
      // An agent that refuses the version ran nothing: the call is made again in the one its card offers.
      const refusal = toRunError(error, signal);
      if (!(refusal instanceof JsonRpcError && WRONG_VERSION.includes(refusal.code))) throw error;
      const offered = await this.card(signal).then(versionOffered, () => guess);
      if (offered === guess) throw error;
      this.version = offered;
      return call();
    }
  }

  /** `tasks/get` or `tasks/cancel` in the version chosen, its errors typed and redacted. */
  async task(kind: TaskKind, params: TaskParams, signal: AbortSignal, timeout?: number): Promise<A2ATask> {
    const fetch: SdkFetchOptions = { operation: kind, timeout, redact: this.dw.redact };
    try {
      return await this.transport(fetch)[kind](params, { signal });
    } catch (error) {
      throw fetch.redact(toRunError(error, signal, "The agent's response"));
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

/** An agent's A2A card (`agent-card.json`, else the legacy `agent.json`); `protocol: 'auto'` follows it. */
export function getAgentCard(dw: Dataworkz, agentId: string, options?: RequestOptions): Promise<AgentCard> {
  return new AgentLink(dw, agentId).readCard(options);
}
