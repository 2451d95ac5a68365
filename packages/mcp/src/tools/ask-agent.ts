import type { AgentEvent } from '@dataworkz/a2a';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { agentIdOf } from '../names.js';
import { asTool, structured } from '../tool-error.js';

const inputSchema = {
  agentId: z
    .string()
    .min(1)
    .describe('The agent to ask: its id or its exact name (any case), as list_agents gives them.'),
  text: z.string().min(1).describe('The message to the agent: a request, or the reply to its question.'),
  contextId: z
    .string()
    .min(1)
    .optional()
    .describe('Continue a conversation: the contextId an earlier ask_agent call returned.'),
  taskId: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Answer the question of a task that is waiting for input: the taskId of the call that returned it.',
    ),
  llmId: z
    .string()
    .min(1)
    .optional()
    .describe(
      "An LLM configuration: its id, or its model name (any case) among the account's; the agent's own, else the account default, when absent.",
    ),
};

const outputSchema = {
  agentId: z.string(),
  state: z.string().describe('The task state: completed, or input-required when the agent asks back.'),
  answer: z.string().describe("The agent's answer, or its question when state is input-required."),
  inputRequired: z
    .boolean()
    .describe('The agent asks a question: call ask_agent again with taskId and contextId.'),
  taskId: z.string().optional(),
  contextId: z.string().optional(),
  steps: z.number().int().describe('How many steps the agent reported while it worked.'),
};

export function registerAskAgent(server: McpServer, context: ToolContext): void {
  const { dw } = context;
  server.registerTool(
    'ask_agent',
    {
      title: 'Ask an agent',
      description:
        'Sends a message to a Dataworkz agent and waits for its answer, reporting each step of its work as a progress ' +
        'notification. When the agent needs more (state input-required, inputRequired true), the answer is its ' +
        'question: call ask_agent again with the reply as text and the taskId and contextId returned. Pass contextId ' +
        'alone to ask a follow-up in the same conversation. Cancelling the call stops the agent run.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    ({ agentId: given, text, contextId, taskId, llmId }, extra) =>
      asTool(dw, 'ask_agent', extra, async () => {
        const agentId = await agentIdOf(context, given, extra.signal);
        const llm =
          llmId === undefined ? undefined : await dw.agents.resolveLlm(llmId, { signal: extra.signal });
        // The A2A client loads with the first agent run, not with the server.
        const { askAgent } = await import('@dataworkz/a2a');
        const progressToken = extra._meta?.progressToken;
        const answer = await askAgent(dw, agentId, {
          text,
          contextId,
          taskId,
          llmId: llm?.llmProviderId,
          signal: extra.signal,
          onStep: async (event, steps) => {
            if (progressToken === undefined) return;
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: steps, message: dw.redact(stepMessage(event)) },
            });
          },
        });
        if (progressToken !== undefined && answer.steps > 0) await progressDelivered(extra);
        return structured({ ...answer });
      }),
  );
}

// Longest wait for the client's answer to the ping below; a client that does not answer still gets the result.
const PING_TIMEOUT_MS = 5000;

/**
 * Resolves once the client has handled the progress notifications sent so far. The MCP SDK's client hands
 * a notification to its handler a microtask after reading it, but forgets the call's progress handler as
 * soon as it reads the result: steps read in the same chunk as the result were dropped (over stdio, all
 * of them when the agent ended quickly). A ping, which every MCP client answers, is read after them,
 * and its answer is sent only after their handlers ran.
 */
async function progressDelivered(extra: {
  sendRequest: (
    request: { method: 'ping' },
    schema: typeof EmptyResultSchema,
    options?: { signal?: AbortSignal; timeout?: number },
  ) => Promise<unknown>;
  signal: AbortSignal;
}): Promise<void> {
  try {
    await extra.sendRequest({ method: 'ping' }, EmptyResultSchema, {
      signal: extra.signal,
      timeout: PING_TIMEOUT_MS,
    });
  } catch {
    // A client that cannot answer a ping still gets its result; its cancellation is seen by the caller.
  }
}

/** A step as a person reads it: its kind, and what the agent is doing when the service says. */
function stepMessage(event: Extract<AgentEvent, { type: 'task-update' }>): string {
  const { type, message, name } = event.data;
  const detail = message ?? name;
  return typeof detail === 'string' && detail !== '' ? `${type}: ${detail}` : String(type);
}
