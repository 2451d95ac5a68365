import { replyWithCard } from '../a2a/card-cache.js';
import type { A2AServer } from '../a2a/stream.js';
import { requestedVersion } from '../a2a/version.js';
import { HttpError } from '../http/errors.js';
import type { Exchange } from '../http/exchange.js';
import { readHistoryTurns } from '../http/history-turns.js';
import { parseJsonBody } from '../http/json-body.js';
import { includeProbe, parseProperties } from '../http/query.js';
import type { Limits } from '../limits.js';
import { randomUUID } from '../neutral/crypto.js';
import type { ServiceState } from '../state.js';
import { runAgent } from './engine.js';
import { AgentRunError, type Turn } from './model.js';

export function listAgents(state: ServiceState, ex: Exchange): void {
  ex.reply.json(
    200,
    state.dataset.agents.map((a) => ({
      agentId: a.agentId,
      name: a.name,
      description: a.description,
      createdByName: a.createdByName,
      createdDate: a.createdDate,
      scenariosCount: String(a.scenarios.length),
    })),
  );
}

export function listAgentLlmProviders(state: ServiceState, ex: Exchange): void {
  ex.reply.json(200, state.dataset.account.llms);
}

/** The card in the A2A version the request names (else the emulator's choice), with its caching headers. */
export async function getAgentCard(state: ServiceState, ex: Exchange, a2a: A2AServer): Promise<void> {
  const card = await a2a.cardJson(state.agent(ex.params.agentId ?? ''), ex.origin, requestedVersion(ex));
  replyWithCard(ex, card);
}

const badBody = (message: string) => new HttpError(400, message, {}, 'BAD_REQUEST_BODY');

type ResponseLimits = Pick<Limits, 'maxTextLength' | 'maxTurnsPerContext' | 'maxJsonDepth'>;

/**
 * Reads the optional JSON body of the deprecated call: conversationHistory (its most recent
 * `maxTurnsPerContext` turns, each at most `maxTextLength` characters) and contextValues.
 */
function readResponseRequest(
  body: string,
  limits: ResponseLimits,
): { history: Turn[]; contextValues: Record<string, unknown> } {
  if (body.trim() === '') return { history: [], contextValues: {} };
  const parsed = parseJsonBody(body, limits.maxJsonDepth);
  if (parsed === null) return { history: [], contextValues: {} };
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw badBody('The request body must be a JSON object');
  const { conversationHistory, contextValues } = parsed as Record<string, unknown>;
  const history: Turn[] = readHistoryTurns(conversationHistory, limits.maxTextLength);
  if (contextValues !== undefined && contextValues !== null) {
    if (typeof contextValues !== 'object' || Array.isArray(contextValues)) {
      throw badBody('contextValues must be a JSON object');
    }
  }
  return {
    history: history.slice(-limits.maxTurnsPerContext),
    contextValues: (contextValues ?? {}) as Record<string, unknown>,
  };
}

/** The deprecated, stateless call: runs the agent over the posted conversation. */
export async function respondToAgent(
  state: ServiceState,
  ex: Exchange,
  limits: ResponseLimits,
): Promise<void> {
  const agent = state.agent(ex.params.agentId ?? '');
  const userText = ex.query.required('userText');
  const llmProviderId = ex.query.required('llmProviderId');
  const llm = state.selectAgentLlm(agent, llmProviderId);
  const properties = parseProperties(ex.query.optional('properties'));
  const { history, contextValues } = readResponseRequest(ex.body, limits);
  const questionUuid = randomUUID();
  const base = {
    question: userText,
    systemName: agent.name,
    systemId: agent.agentId,
    type: 'agent',
    questionUuid,
  };
  try {
    const outcome = await runAgent(agent, { text: userText, history, contextValues, llm }, state);
    ex.reply.json(200, {
      status: 'OK',
      data: {
        ...base,
        answer: outcome.answer,
        scenario: outcome.scenario,
        // A question back (a missing order number, an approval) is stated as such; the caller replies
        // by posting it and its own answer in conversationHistory.
        status: outcome.state === 'input-required' ? 'INPUT_REQUIRED' : 'COMPLETED',
        ...(agent.structuredResponse
          ? {
              structuredResponse: {
                scenario: outcome.scenario,
                agentResponse: outcome.answer,
                responseType: outcome.state === 'input-required' ? 'AskUser' : 'Finish',
                structuredOutput: JSON.stringify(outcome.structuredOutput ?? {}),
              },
            }
          : {}),
        queryPlan: outcome.queryPlan,
        ...(includeProbe(properties) ? { probe: JSON.stringify({ llm, steps: outcome.steps }) } : {}),
      },
    });
  } catch (error) {
    if (!(error instanceof AgentRunError)) throw error;
    ex.reply.json(200, {
      status: 'OK',
      data: { ...base, status: 'FAILED', answer: '', failureReason: error.message },
    });
  }
}
