import { own } from '../data/own.js';
import { HttpError } from '../http/errors.js';
import type { Exchange } from '../http/exchange.js';
import { readHistoryTurns } from '../http/history-turns.js';
import { parseJsonBody } from '../http/json-body.js';
import type { Limits } from '../limits.js';
import { randomUUID } from '../neutral/crypto.js';
import { composeAnswer, termsOf } from '../qna/compose-answer.js';
import { retrievalQuery } from '../qna/follow-up.js';
import { probeTree, timed } from '../qna/probe.js';
import type { ServiceState } from '../state.js';
import { type AgentSpec, readAgentSpec, type SpecScenario } from './agent-spec.js';

type CallLimits = Pick<Limits, 'maxTextLength' | 'maxTurnsPerContext' | 'maxJsonDepth'>;

/** Passages an answer is composed from. */
const contextSize = 3;

const defaultFailure = 'I could not follow what you meant. Please rephrase it, or ask what I can do.';

/** How many of the text's terms a scenario's name, description and examples hold. */
function overlap(scenario: SpecScenario, wanted: Set<string>): number {
  const have = termsOf([scenario.name, scenario.description, ...scenario.examples].join(' '));
  let n = 0;
  for (const t of wanted) if (have.has(t)) n += 1;
  return n;
}

/** The scenario sharing most terms with the text (the first on a tie); none when no term is shared. */
function selectScenario(spec: AgentSpec, text: string): SpecScenario | undefined {
  const wanted = termsOf(text);
  let best: SpecScenario | undefined;
  let bestScore = 0;
  for (const scenario of spec.scenarios) {
    const score = overlap(scenario, wanted);
    if (score > bestScore) {
      best = scenario;
      bestScore = score;
    }
  }
  return best;
}

function readRequest(body: string, limits: CallLimits) {
  const parsed = body.trim() === '' ? undefined : parseJsonBody(body, limits.maxJsonDepth);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new HttpError(400, 'The request body must be a JSON object with agentSpec', {}, 'BAD_REQUEST_BODY');
  const { agentSpec, conversationHistory } = parsed as Record<string, unknown>;
  const history = readHistoryTurns(conversationHistory, limits.maxTextLength);
  return { spec: readAgentSpec(agentSpec), history: history.slice(-limits.maxTurnsPerContext) };
}

/**
 * The legacy call the vendor's first agent demos make (a Streamlit chat, a Next.js store):
 * `POST /api/qna/v1/systems/{systemId}/call-agent?llmProviderId=&userText=` with an agent spec
 * and the conversation in the body, answered with a top-level `answer` and `probe`. A scenario is
 * chosen from the spec by the words of the text; one with tools answers from the system's corpus,
 * citing its passages, one without says what the agent can do. The deprecated response call
 * replaced it; the client has no method for it.
 */
export async function callAgentLegacy(state: ServiceState, ex: Exchange, limits: CallLimits): Promise<void> {
  const { system, retriever } = state.system(ex.params.systemId ?? '');
  const userText = ex.query.required('userText');
  const llmProviderId = ex.query.required('llmProviderId');
  state.checkSystemLlm(system, llmProviderId);
  const { spec, history } = readRequest(ex.body, limits);
  const startMillis = Date.now();
  const selection = await timed(
    'SCENARIO_SELECTION',
    () => selectScenario(spec, userText) ?? selectScenario(spec, retrievalQuery(userText, history)),
    (scenario) => ({ scenario: scenario?.name ?? null, candidates: spec.scenarios.map((s) => s.name) }),
  );
  const steps = [selection.step];
  const scenario = selection.value;
  let answer: string;
  if (!scenario) {
    answer = spec.scenarioSelectionFailureMessage ?? defaultFailure;
  } else if (scenario.usesTools) {
    const query = retrievalQuery(userText, history);
    const search = await timed(
      'QNA_SEARCH',
      () => retriever.search(query, { clauses: [] }, contextSize),
      (hits) => ({
        query,
        systemId: system.systemId,
        Input: hits.map((h) => ({ Content: h.passage.text, title: h.passage.document.title })),
      }),
    );
    steps.push(search.step);
    answer =
      composeAnswer(userText, search.value) ?? `${system.name} holds nothing that answers that question.`;
  } else {
    const offers = spec.scenarios.filter((s) => s.usesTools && s.description).map((s) => s.description);
    answer = offers.length
      ? `I can help with these: ${offers.join('; ')}.`
      : (spec.scenarioSelectionFailureMessage ?? defaultFailure);
  }
  ex.reply.json(200, {
    answer,
    scenario: scenario?.name ?? '',
    questionUuid: randomUUID(),
    status: 'COMPLETED',
    probe: probeTree('CALL_AGENT', startMillis, [
      ...steps,
      {
        ref: 'COMPOSE',
        startMillis: Date.now(),
        endMillis: Date.now(),
        data: () => ({ llmProviderId, model: own(system.llms, llmProviderId) }),
      },
    ]),
  });
}
