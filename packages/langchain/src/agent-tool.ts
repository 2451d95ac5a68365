import { askAgent, type StreamAgentOptions, type TaskUpdate } from '@dataworkz/a2a';
import type { Dataworkz } from '@dataworkz/client';
import { resolveOnce } from '@dataworkz/client/internal';
import { dispatchCustomEvent } from '@langchain/core/callbacks/dispatch';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';

/** The name of the custom callback event each task update of an agent run is reported as. */
export const TASK_UPDATE_EVENT = 'dataworkz_task_update';

type ContextValues = NonNullable<StreamAgentOptions['contextValues']>;

/** The payload of a `dataworkz_task_update` event (`streamEvents` gives it as `event.data`). */
export interface TaskUpdateEventData {
  agentId: string;
  taskId: string | undefined;
  contextId: string | undefined;
  /** 1 for the run's first update, then 2, 3... */
  step: number;
  /** The update as the service sent it: `message` says what the agent is doing. */
  update: TaskUpdate;
}

/** One agent as a tool. */
export interface AgentToolOptions {
  /** The agent: its id, or its exact name (any case), resolved on first use. */
  agentId: string;
  /** The tool's name, unique among the model's tools. Default `dataworkz_agent`. */
  name?: string | undefined;
  /** What the agent can do, so the model knows when to call it. */
  description?: string | undefined;
  /**
   * Context values sent with every call (the signed-in user, their locale...). They win over values
   * of the same name the model passes, so a prompt cannot change who the agent acts for.
   */
  contextValues?: ContextValues | undefined;
}

/** What the agent tool returns as its artifact. */
export interface AgentArtifact {
  agentId: string;
  /** `completed`, or `input-required` when the agent asks back. */
  state: string;
  /** The agent's answer, or its question when it asks back. */
  answer: string;
  inputRequired: boolean;
  taskId: string | undefined;
  contextId: string | undefined;
  /** How many task updates the run reported. */
  steps: number;
}

const contextValue = z.union([z.string(), z.number(), z.boolean()]);

const agentSchema = z.object({
  text: z.string().min(1).describe('The request, or the reply to a question the agent asked.'),
  contextValues: z
    .record(z.string().min(1), contextValue)
    .optional()
    .describe('Named values the agent may use, e.g. {"orderId": "1001"}.'),
  contextId: z
    .string()
    .min(1)
    .optional()
    .describe('The contextId of an earlier call, to continue its conversation.'),
  taskId: z.string().min(1).optional().describe('The taskId of a call whose agent asked back, to answer it.'),
});

/**
 * A Dataworkz agent as a LangChain tool. The run streams over A2A; each task update is dispatched as a
 * `dataworkz_task_update` custom event (seen by callback handlers' `handleCustomEvent` and in
 * `streamEvents` as `on_custom_event`), and the tool's output is the agent's answer. When the agent asks
 * back, the output says so with the ids to answer on; the artifact is an `AgentArtifact`. Aborting the
 * run's signal closes the agent's stream.
 */
export function dataworkzAgentTool(client: Dataworkz, options: AgentToolOptions) {
  if (typeof options?.agentId !== 'string' || options.agentId === '') {
    throw new TypeError('dataworkzAgentTool needs { agentId }: the agent it calls.');
  }
  const { agentId: given } = options;
  const agentIdOf = resolveOnce(async () => (await client.agents.resolve(given)).agentId);
  return tool(
    async ({ text, contextValues, contextId, taskId }, config): Promise<[string, AgentArtifact]> => {
      const agentId = await agentIdOf();
      const values = { ...contextValues, ...options.contextValues };
      const answer = await askAgent(client, agentId, {
        text,
        contextValues: Object.keys(values).length > 0 ? values : undefined,
        contextId,
        taskId,
        signal: config?.signal,
        onStep: async (event, step) => {
          const data: TaskUpdateEventData = {
            agentId,
            taskId: event.taskId,
            contextId: event.contextId,
            step,
            update: event.data,
          };
          await dispatchCustomEvent(TASK_UPDATE_EVENT, data, config);
        },
      });
      const artifact: AgentArtifact = { ...answer, taskId: answer.taskId, contextId: answer.contextId };
      const content = answer.inputRequired
        ? `The agent needs more before it can answer: ${answer.answer}\nAsk the user, then call this tool again with ` +
          `their reply as text, taskId "${answer.taskId}" and contextId "${answer.contextId}".`
        : answer.answer;
      return [content, artifact];
    },
    {
      name: options.name ?? 'dataworkz_agent',
      description:
        options.description ??
        `Sends a message to the Dataworkz agent ${given} and returns its answer. If it asks back, ask the user and ` +
          'call again with the reply, the taskId and the contextId; pass contextId alone for a follow-up.',
      schema: agentSchema,
      responseFormat: 'content_and_artifact',
    },
  );
}
