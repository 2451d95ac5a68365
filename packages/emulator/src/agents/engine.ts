import { randomUUID } from '../neutral/crypto.js';
import { capabilityAnswer, isSmallTalk, scenarioQuestion } from './capabilities.js';
import { decisionIn, inputOptions, readReply } from './hitl.js';
import {
  type AgentDefinition,
  type AgentInput,
  type AgentOutcome,
  AgentRunError,
  type HitlRequest,
  type PendingQuestion,
  type Scenario,
  type ScenarioResult,
  type Turn,
} from './model.js';
import type { AgentStep } from './step.js';
import { Toolbox, type ToolSources } from './toolbox.js';

function score(scenario: Scenario, text: string): number {
  const lower = text.toLowerCase();
  return scenario.keywords.reduce((n, k) => (new RegExp(`\\b${k}`, 'i').test(lower) ? n + 1 : n), 0);
}

function bestMatch(agent: AgentDefinition, text: string): Scenario | undefined {
  let best: Scenario | undefined;
  let bestScore = 0;
  for (const scenario of agent.scenarios) {
    const s = score(scenario, text);
    if (s > bestScore) {
      best = scenario;
      bestScore = s;
    }
  }
  return best;
}

/**
 * The scenario whose keywords best match the text. A follow-up (it names an order, an email or a
 * version, or answers the agent's last question) may also take the scenario of an earlier user turn.
 */
function selectScenario(agent: AgentDefinition, text: string, history: Turn[]): Scenario | undefined {
  const direct = bestMatch(agent, text);
  if (direct) return direct;
  const lastAnswer = [...history].reverse().find((t) => t.by === 'AI');
  const followUp = /\d|@/.test(text) || (lastAnswer?.text.trimEnd().endsWith('?') ?? false);
  if (!followUp) return undefined;
  for (const turn of [...history].reverse()) {
    const earlier = turn.by === 'USER' ? bestMatch(agent, turn.text) : undefined;
    if (earlier) return earlier;
  }
  return undefined;
}

function personalise(answer: string, contextValues: Record<string, unknown>): string {
  const userName = contextValues.userName;
  if (typeof userName !== 'string' || !userName.trim()) return answer;
  const greeting = `Hi ${userName.trim()}!`;
  return answer.startsWith('Hello!')
    ? `${greeting}${answer.slice('Hello!'.length)}`
    : `${greeting} ${answer}`;
}

/** The question a scenario asks, as a human-in-the-loop request with its own id. */
function hitlRequestOf(result: ScenarioResult): HitlRequest {
  const {
    type = 'INPUT_REQUIRED',
    options = type === 'INPUT_REQUIRED' ? inputOptions : [],
    ...rest
  } = result.ask ?? {};
  return { requestId: randomUUID(), type, message: result.answer, options, ...rest };
}

/** The open question asked again, with the reason the reply could not be used; the request keeps its id. */
function askAgain(pending: PendingQuestion, reason: string, heard: string): AgentOutcome {
  return {
    state: 'input-required',
    answer: `${reason} ${pending.request.message}`,
    scenario: pending.scenario,
    heard,
    hitlRequests: [pending.request],
    queryPlan: 'read the reply; ask again',
    steps: [],
  };
}

/**
 * Runs an agent: continues the question a task is waiting on, or selects a scenario, calls its
 * tools and composes the answer; text outside every scenario gets the agent's capability answer.
 * Deterministic for a given input, apart from the ids of the questions it asks.
 */
export async function runAgent(
  agent: AgentDefinition,
  input: AgentInput,
  sources: ToolSources,
  onStep: (step: AgentStep) => Promise<void> = async () => {},
): Promise<AgentOutcome> {
  const steps: AgentStep[] = [];
  const report = async (step: AgentStep) => {
    steps.push(step);
    await onStep(step);
  };
  const { pending, resolution } = input;
  let text = input.text.trim();
  let decision = input.decision;
  if (resolution) {
    if (!pending)
      throw new AgentRunError('The message answers a request, but no question of this task is waiting');
    const reply =
      'malformed' in resolution
        ? { refusal: `The reply could not be read: ${resolution.malformed}.` }
        : readReply(pending.request, resolution);
    if ('refusal' in reply) return askAgain(pending, reply.refusal, text);
    text = reply.text;
    decision = reply.decision;
  }
  if (!text) throw new AgentRunError('The message has no text to answer');
  decision ??= decisionIn(text);
  const asked = pending && agent.scenarios.find((s) => s.name === pending.scenario);
  // A reply that plainly asks something else moves on, as a person would; an approval waits for its answer.
  const switched = asked && !pending.request.type.startsWith('APPROVAL') ? bestMatch(agent, text) : undefined;
  // The agent's own "which of these?" was asked by no scenario: a reply may name one of them.
  const clarifying = pending?.scenario === '' ? pending : undefined;
  const chosen = clarifying && agent.scenarios.find((s) => s.name.toLowerCase() === text.toLowerCase());
  const scenario =
    chosen ??
    switched ??
    asked ??
    (isSmallTalk(text) ? undefined : selectScenario(agent, text, input.history));
  if (!scenario && clarifying)
    return askAgain(clarifying, "I still can't tell which of these you need.", text);
  if (!scenario && agent.asksWhenUnmatched && !isSmallTalk(text)) {
    await report({ type: 'COMPOSING', message: `Composing a question with ${input.llm.model}` });
    const answer = personalise(scenarioQuestion(agent, text), input.contextValues);
    const ask = {
      type: 'CLARIFICATION_REQUIRED',
      field: 'scenario',
      options: agent.scenarios.map((s) => s.name),
    } as const;
    return {
      state: 'input-required',
      answer,
      ask,
      scenario: '',
      heard: text,
      hitlRequests: [hitlRequestOf({ state: 'input-required', answer, ask })],
      queryPlan: 'no scenario matches; ask which one',
      steps,
    };
  }
  if (!scenario) {
    await report({ type: 'COMPOSING', message: `Composing the answer with ${input.llm.model}` });
    return {
      state: 'completed',
      answer: personalise(capabilityAnswer(agent, text), input.contextValues),
      scenario: '',
      heard: text,
      queryPlan: 'no scenario matches; compose',
      steps,
    };
  }
  await report({
    type: 'SCENARIO_SELECTED',
    scenario: scenario.name,
    message: `Selected scenario: ${scenario.name}`,
  });
  const tools = new Toolbox(sources, report);
  const result = await scenario.run({ ...input, text, decision }, tools);
  await report({ type: 'COMPOSING', message: `Composing the answer with ${input.llm.model}` });
  const answer = personalise(result.answer, input.contextValues);
  return {
    ...result,
    answer,
    scenario: scenario.name,
    heard: text,
    ...(result.state === 'input-required' ? { hitlRequests: [hitlRequestOf({ ...result, answer })] } : {}),
    queryPlan: [`select scenario: ${scenario.name}`, ...tools.calls.map((c) => `call ${c}`), 'compose'].join(
      '; ',
    ),
    steps,
  };
}
