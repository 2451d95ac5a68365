import type { APIPromise } from '../core/api-promise.js';
import { InvalidParameterError } from '../core/errors.js';
import {
  entriesOf,
  findByIdOrName,
  pickByIdOrName,
  type ResolveOptions,
  requireIdOrName,
  requireIdsOrNames,
} from '../core/names.js';
import { isUuidShaped, requireId, requireString, withoutUndefined } from '../core/params.js';
import type { RequestOptions } from '../core/request-options.js';
import { checkHistory } from '../internal/conversation.js';
import { readAgentResponse, readJson } from '../internal/read.js';
import { type Properties, serializeProperties } from '../properties.js';
import type {
  AgentCard,
  AgentListItem,
  AgentResponse,
  AgentResponseRequest,
  ContextValues,
  ConversationMessage,
  LlmProviderMap,
} from '../types.js';
import { APIResource } from './resource.js';

/** What `agents.respond` sends. */
export interface RespondParams {
  /** The latest user text. */
  userText: string;
  /** An LLM configuration of the account (see `agents.llmProviders()`). */
  llmProviderId: string;
  /** Extra execution properties. */
  properties?: Properties | undefined;
  /** The conversation so far, oldest first (the call is stateless). */
  conversationHistory?: ConversationMessage[] | undefined;
  /** Context variables by name; each value is any JSON value. */
  contextValues?: ContextValues | undefined;
}

export interface CardOptions extends RequestOptions {
  /** Read the card from the legacy `.well-known/agent.json` path instead of `agent-card.json`. */
  legacy?: boolean | undefined;
}

/** Agents: listing, LLM configurations, A2A cards and the deprecated response call. */
export class Agents extends APIResource {
  /** Every agent of the account that can be invoked from an external system. */
  list(options?: RequestOptions): APIPromise<AgentListItem[]> {
    return this._call(
      'agents.list',
      options,
      () => ({ method: 'GET', path: '/api/agents/v1/' }),
      readJson<AgentListItem[]>,
    );
  }

  /**
   * The agent `idOrName` names: its id, or its exact name without regard to case, found with one
   * `list()`. Rejects with UnknownNameError (naming the close matches) or AmbiguousNameError.
   */
  async resolve(idOrName: string, options?: ResolveOptions): Promise<{ agentId: string; name: string }> {
    const [agent] = await this.resolveAll([requireIdOrName('agent', idOrName)], options);
    return agent as { agentId: string; name: string };
  }

  /**
   * The agents a list of ids or names names, in its order, found with one `list()` (as `resolve()`
   * finds one). Rejects with UnknownNameError or AmbiguousNameError for the first entry that names
   * none or several.
   */
  async resolveAll(
    idsOrNames: readonly string[],
    options?: ResolveOptions,
  ): Promise<{ agentId: string; name: string }[]> {
    requireIdsOrNames('agent', idsOrNames);
    const { within, ...request } = options ?? {};
    const agents = (await this.list(request)).map((a) => ({ id: a.agentId, name: a.name }));
    return idsOrNames.map((given) => {
      const { id, name } = pickByIdOrName('agent', given, agents, within);
      return { agentId: id, name };
    });
  }

  /**
   * The account's LLM configuration that `idOrName` names: its id, or its model name as
   * `llmProviders()` lists it, without regard to case, found with one `llmProviders()`. An agent's
   * own LLMs are in no list, so a UUID-shaped id the account does not list is taken as it is (its
   * `name` undefined) and the service judges it. Rejects with UnknownNameError (listing the
   * account's LLMs) or AmbiguousNameError.
   */
  async resolveLlm(
    idOrName: string,
    options?: RequestOptions,
  ): Promise<{ llmProviderId: string; name: string | undefined }> {
    const given = requireIdOrName('LLM', idOrName);
    const llms = entriesOf(await this.llmProviders(options));
    const found = findByIdOrName('LLM', given, llms, 'account');
    if (found) return { llmProviderId: found.id, name: found.name };
    if (isUuidShaped(given)) return { llmProviderId: given, name: undefined };
    const { id, name } = pickByIdOrName('LLM', given, llms, undefined, 'account');
    return { llmProviderId: id, name };
  }

  /** The account's LLM configurations for agents: id to model name. */
  llmProviders(options?: RequestOptions): APIPromise<LlmProviderMap> {
    return this._call(
      'agents.llmProviders',
      options,
      () => ({ method: 'GET', path: '/api/agents/v1/llm-providers' }),
      readJson<LlmProviderMap>,
    );
  }

  /**
   * Asks an agent and waits for the whole answer (stateless: pass the conversation so far). A failed
   * execution (`data.status: FAILED`) rejects with QueryFailedError, as search and answer do.
   * @deprecated The service deprecates this call in favour of the A2A streaming call (`@dataworkz/a2a`).
   */
  respond(agentId: string, params: RespondParams, options?: RequestOptions): APIPromise<AgentResponse> {
    return this._call(
      'agents.respond',
      options,
      () => {
        const path = { agentId: requireId('agentId', agentId) };
        if (typeof params !== 'object' || params === null) {
          throw new InvalidParameterError('params', 'respond() needs { userText, llmProviderId }.');
        }
        const query = withoutUndefined({
          userText: requireString('userText', params.userText),
          llmProviderId: requireString('llmProviderId', params.llmProviderId),
          properties: serializeProperties(params.properties),
        });
        const body: AgentResponseRequest = {};
        if (params.conversationHistory !== undefined) {
          body.conversationHistory = checkHistory(params.conversationHistory);
        }
        if (params.contextValues !== undefined) body.contextValues = checkContextValues(params.contextValues);
        return {
          method: 'POST',
          path: '/api/agents/v1/{agentId}/response',
          params: { path, query },
          body,
          trace: {
            genAiOperation: 'invoke_agent',
            attributes: { 'gen_ai.agent.id': path.agentId, 'dataworkz.llm_provider.id': query.llmProviderId },
            input: query.userText,
          },
        };
      },
      readAgentResponse<AgentResponse>,
      { output: agentAnswer },
    );
  }

  /** The agent's A2A card (`.well-known/agent-card.json`, or `agent.json` with `legacy: true`). */
  card(agentId: string, options?: CardOptions): APIPromise<AgentCard> {
    const { legacy, ...request } = options ?? {};
    return this._call(
      'agents.card',
      request,
      () => {
        const path = { agentId: requireId('agentId', agentId) };
        return legacy === true
          ? { method: 'GET', path: '/api/agents/v1/a2a/{agentId}/.well-known/agent.json', params: { path } }
          : {
              method: 'GET',
              path: '/api/agents/v1/a2a/{agentId}/.well-known/agent-card.json',
              params: { path },
            };
      },
      readJson<AgentCard>,
    );
  }
}

function agentAnswer(data: unknown): string | undefined {
  const answer = (data as { data?: { answer?: unknown } } | undefined)?.data?.answer;
  return typeof answer === 'string' ? answer : undefined;
}

function checkContextValues(values: unknown): ContextValues {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new InvalidParameterError('contextValues', 'contextValues must be an object of name to value.');
  }
  return values as ContextValues;
}
