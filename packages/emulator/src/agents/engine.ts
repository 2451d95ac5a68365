import {
  type AgentDefinition,
  type AgentInput,
  type AgentOutcome,
  AgentRunError,
  type AgentStep,
  type Scenario,
} from './model.js';
import { type KnowledgeSource, Toolbox } from './toolbox.js';

function score(scenario: Scenario, text: string): number {
  const lower = text.toLowerCase();
  return scenario.keywords.reduce((n, k) => (new RegExp(`\\b${k}`, 'i').test(lower) ? n + 1 : n), 0);
}

/** The scenario whose keywords best match the latest text, else the most recent earlier user turn. */
function selectScenario(agent: AgentDefinition, input: AgentInput): Scenario | undefined {
  const texts = [
    input.text,
    ...input.history
      .filter((t) => t.by === 'USER')
      .map((t) => t.text)
      .reverse(),
  ];
  for (const text of texts) {
    let best: Scenario | undefined;
    let bestScore = 0;
    for (const scenario of agent.scenarios) {
      const s = score(scenario, text);
      if (s > bestScore) {
        best = scenario;
        bestScore = s;
      }
    }
    if (best) return best;
  }
  return undefined;
}

function personalise(answer: string, contextValues: Record<string, unknown>): string {
  const userName = contextValues.userName;
  return typeof userName === 'string' && userName.trim() ? `Hi ${userName.trim()}! ${answer}` : answer;
}

/** Runs an agent: selects a scenario, calls its tools, composes the answer. Deterministic for a given input. */
export async function runAgent(
  agent: AgentDefinition,
  input: AgentInput,
  knowledge: Map<string, KnowledgeSource>,
  onStep: (step: AgentStep) => Promise<void> = async () => {},
): Promise<AgentOutcome> {
  const steps: AgentStep[] = [];
  const report = async (step: AgentStep) => {
    steps.push(step);
    await onStep(step);
  };
  if (!input.text.trim()) throw new AgentRunError('The message has no text to answer');
  const scenario = selectScenario(agent, input);
  if (!scenario) {
    throw new AgentRunError(
      `No scenario of ${agent.name} matches the request; try one of: ${agent.scenarios.map((s) => s.name).join(', ')}`,
    );
  }
  await report({
    type: 'SCENARIO_SELECTED',
    scenario: scenario.name,
    message: `Selected scenario: ${scenario.name}`,
  });
  const tools = new Toolbox(knowledge, report);
  const result = await scenario.run(input, tools);
  await report({ type: 'COMPOSING', message: `Composing the answer with ${input.llm.model}` });
  return {
    ...result,
    answer: personalise(result.answer, input.contextValues),
    scenario: scenario.name,
    queryPlan: [`select scenario: ${scenario.name}`, ...tools.calls.map((c) => `call ${c}`), 'compose'].join(
      '; ',
    ),
    steps,
  };
}
