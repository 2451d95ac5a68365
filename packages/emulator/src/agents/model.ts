import type { AgentProfile } from '../data/model.js';
import type { Toolbox } from './toolbox.js';

/** One turn of the conversation so far. */
export interface Turn {
  by: 'AI' | 'USER';
  text: string;
}

export interface AgentInput {
  text: string;
  /** Earlier turns, oldest first. */
  history: Turn[];
  /** Context values provided by the caller (deprecated call) or through the provided-values extension. */
  contextValues: Record<string, unknown>;
  llm: { llmId: string; model: string };
}

/** One real step of a run, reported as it happens (the stream sends each as a task update). */
export interface AgentStep {
  type: 'SCENARIO_SELECTED' | 'TOOL_CALL' | 'COMPOSING';
  message: string;
  scenario?: string;
  tool?: string;
}

export interface ScenarioResult {
  /** `input-required` when the agent needs the caller to say more (e.g. which order). */
  state: 'completed' | 'input-required';
  answer: string;
  structuredOutput?: Record<string, unknown>;
}

export interface Scenario {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  /** Words and phrases that select this scenario; the one with most matches wins. */
  keywords: string[];
  run(input: AgentInput, tools: Toolbox): Promise<ScenarioResult>;
}

export interface AgentDefinition extends AgentProfile {
  scenarios: Scenario[];
}

export interface AgentOutcome extends ScenarioResult {
  scenario: string;
  queryPlan: string;
  steps: AgentStep[];
}

/** A run that could not produce an answer; the stream ends `failed` with this message. */
export class AgentRunError extends Error {
  override readonly name = 'AgentRunError';
}
