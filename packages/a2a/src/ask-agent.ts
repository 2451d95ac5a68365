import type { Dataworkz } from '@dataworkz/client';
import type { TaskState } from './a2a-types.js';
import type { AgentTaskUpdateEvent } from './events.js';
import { type StreamAgentOptions, streamAgent } from './stream-agent.js';

/** An agent's answer as a tool hands it back to a model (the MCP server, the AI SDK and LangChain tools). */
export interface AgentToolAnswer {
  /** The agent asked, by its id. */
  agentId: string;
  /** The task state: `completed`, or `input-required` when the agent asks back. */
  state: TaskState;
  /** The agent's answer, or its question when it asks back. */
  answer: string;
  /** The agent asks a question: call again with the reply, the `taskId` and the `contextId`. */
  inputRequired: boolean;
  /** The task, to answer the agent's question on. */
  taskId?: string;
  /** The conversation, to continue it. */
  contextId?: string;
  /** How many steps (task updates) the agent reported while it worked. */
  steps: number;
}

/** What `askAgent` sends, as `streamAgent`, and who hears of each step. */
export interface AskAgentOptions extends StreamAgentOptions {
  /** Told of each task update as it arrives, with its number (1 for the first); awaited before the next. */
  onStep?: ((event: AgentTaskUpdateEvent, step: number) => void | Promise<void>) | undefined;
}

/**
 * Asks an agent (as `streamAgent`) and waits for its final answer, counting the steps it reported on
 * the way: what a tool that asks an agent returns to a model.
 */
export async function askAgent(
  dw: Dataworkz,
  agentId: string,
  options: AskAgentOptions,
): Promise<AgentToolAnswer> {
  const { onStep, ...request } = options;
  const run = streamAgent(dw, agentId, request);
  let steps = 0;
  for await (const event of run) {
    if (event.type !== 'task-update') continue;
    steps += 1;
    await onStep?.(event, steps);
  }
  const final = await run.finalAnswer();
  return {
    agentId,
    state: final.state,
    answer: final.answer,
    inputRequired: final.state === 'input-required',
    ...(final.taskId !== undefined ? { taskId: final.taskId } : {}),
    ...(final.contextId !== undefined ? { contextId: final.contextId } : {}),
    steps,
  };
}
