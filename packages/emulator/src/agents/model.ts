import type { AgentProfile } from '../data/model.js';
import type { AgentStep } from './step.js';
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
  /** The question the task is waiting on, when this message continues it (A2A `taskId`). */
  pending?: PendingQuestion | undefined;
  /** A structured reply to `pending`: the UI kit's resolution, sent as a data part (or why it is unreadable). */
  resolution?: HitlResolution | { malformed: string } | undefined;
  /** The caller's answer to an approval: from a resolution, else a plain yes or no in the text. */
  decision?: Decision | undefined;
}

/** The caller's answer to an approval request. */
export type Decision = 'approve' | 'reject';

/** The human-in-the-loop kinds the vendor's UI kit knows. */
export type HitlType =
  | 'APPROVAL_REQUIRED'
  | 'APPROVAL_WITH_MODIFICATIONS'
  | 'INPUT_REQUIRED'
  | 'CLARIFICATION_REQUIRED';

/** What an agent asks the caller before it can go on; sent in the agent message's `metadata.hitlRequests`. */
export interface HitlRequest {
  requestId: string;
  type: HitlType;
  /** The question, as the answer text states it. */
  message: string;
  /** The values `selectedOption` may take. */
  options: string[];
  /** The action waiting for approval (approval requests). */
  toolName?: string;
  args?: Record<string, unknown>;
  /** What is missing (input requests), e.g. `orderId`. */
  field?: string;
}

/** The UI kit's answer to a HitlRequest. */
export interface HitlResolution {
  requestId: string;
  selectedOption: string;
  userInput?: string;
  modifiedArgs?: Record<string, unknown>;
}

/** A question the agent asked earlier in the task, with the scenario that asked it. */
export interface PendingQuestion {
  scenario: string;
  request: HitlRequest;
}

/** What a scenario asks for; the engine gives it a requestId, the question text and default options. */
type HitlAsk = Omit<HitlRequest, 'requestId' | 'message' | 'options'> & { options?: string[] };

export interface ScenarioResult {
  /** `input-required` when the agent needs the caller to say more (e.g. which order). */
  state: 'completed' | 'input-required';
  answer: string;
  structuredOutput?: Record<string, unknown>;
  /** With `input-required`: what kind of reply is wanted (default: free input). */
  ask?: HitlAsk;
}

export interface Scenario {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  /** What the agent offers through this scenario, in plain words after "I can" (the capability answer lists them). */
  offer: string;
  /** Words and phrases that select this scenario; the one with most matches wins. */
  keywords: string[];
  run(input: AgentInput, tools: Toolbox): Promise<ScenarioResult>;
}

export interface AgentDefinition extends AgentProfile {
  scenarios: Scenario[];
  /**
   * Text outside every scenario (small talk aside) gets a question back instead of the capability
   * answer: which scenario is meant, with the task kept open until a reply names one.
   */
  asksWhenUnmatched?: boolean;
}

export interface AgentOutcome extends ScenarioResult {
  scenario: string;
  /** The text the run acted on: the message text, or the reply a resolution stands for. */
  heard: string;
  /** With `input-required`: the question as a human-in-the-loop request. */
  hitlRequests?: HitlRequest[];
  queryPlan: string;
  steps: AgentStep[];
}

/** A run that could not produce an answer; the stream ends `failed` with this message. */
export class AgentRunError extends Error {
  override readonly name = 'AgentRunError';
}
