import { randomUUID } from 'node:crypto';
import type { Message, Task, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext, User } from '@a2a-js/sdk/server';
import { runAgent } from '../agents/engine.js';
import { type AgentDefinition, AgentRunError, type AgentStep, type Turn } from '../agents/model.js';
import type { KnowledgeSource } from '../agents/toolbox.js';
import { readProvidedValues } from './provided-values.js';

/** The caller of one stream request, with the LLM already chosen from `llmId`, the agent and the account. */
export class StreamCaller implements User {
  constructor(readonly llm: { llmId: string; model: string }) {}
  get isAuthenticated(): boolean {
    return true;
  }
  get userName(): string {
    return 'api-key';
  }
}

interface Conversation {
  turns: Turn[];
  contextValues: Record<string, unknown>;
}

const maxConversations = 1000;

/** Runs one agent for the A2A server: a task update per step, then a final status with the answer. */
export class DataworkzAgentExecutor implements AgentExecutor {
  // Conversations by contextId, so a new task in the same context sees the earlier turns.
  private readonly conversations = new Map<string, Conversation>();
  private readonly cancelled = new Set<string>();
  private readonly taskContexts = new Map<string, string>();

  constructor(
    private readonly agent: AgentDefinition,
    private readonly knowledge: Map<string, KnowledgeSource>,
    private readonly extensionUri: string,
    private readonly stepDelayMs = 0,
  ) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = ctx;
    this.taskContexts.set(taskId, contextId);
    const user = ctx.context?.user;
    const llm = user instanceof StreamCaller ? user.llm : undefined;
    if (!ctx.task) {
      const task: Task = {
        kind: 'task',
        id: taskId,
        contextId,
        status: { state: 'submitted', timestamp: new Date().toISOString() },
        history: [userMessage],
      };
      bus.publish(task);
    }
    const extensionActive = ctx.context?.requestedExtensions?.includes(this.extensionUri) ?? false;
    if (extensionActive) ctx.context?.addActivatedExtension(this.extensionUri);
    const conversation = this.conversation(contextId);
    const text = userMessage.parts
      .map((p) => (p.kind === 'text' ? p.text : ''))
      .join(' ')
      .trim();

    const publish = (state: TaskState, message: Message | undefined, final: boolean) => {
      const event: TaskStatusUpdateEvent = {
        kind: 'status-update',
        taskId,
        contextId,
        final,
        status: { state, timestamp: new Date().toISOString(), ...(message ? { message } : {}) },
      };
      bus.publish(event);
    };
    const agentMessage = (parts: Message['parts'], metadata?: Record<string, unknown>): Message => ({
      kind: 'message',
      role: 'agent',
      messageId: randomUUID(),
      taskId,
      contextId,
      parts,
      ...(metadata ? { metadata } : {}),
    });
    const onStep = async (step: AgentStep) => {
      if (this.stepDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.stepDelayMs).unref());
      if (this.cancelled.has(taskId)) throw new AgentRunError('The task was cancelled');
      publish(
        'working',
        agentMessage([{ kind: 'data', data: { ...step }, metadata: { type: 'SVC_STATUS_UPDATE' } }]),
        false,
      );
    };

    try {
      if (!llm) throw new AgentRunError('No LLM was selected for this request');
      // Spread, not Object.assign: a `__proto__` key must stay a value, never become the prototype.
      if (extensionActive)
        conversation.contextValues = {
          ...conversation.contextValues,
          ...readProvidedValues(userMessage, this.extensionUri),
        };
      const outcome = await runAgent(
        this.agent,
        { text, history: [...conversation.turns], contextValues: { ...conversation.contextValues }, llm },
        this.knowledge,
        onStep,
      );
      conversation.turns.push({ by: 'USER', text }, { by: 'AI', text: outcome.answer });
      const parts: Message['parts'] = [{ kind: 'text', text: outcome.answer }];
      if (this.agent.structuredResponse && outcome.structuredOutput) {
        parts.push({
          kind: 'data',
          data: outcome.structuredOutput,
          metadata: { type: 'STRUCTURED_RESPONSE' },
        });
      }
      const metadata = {
        scenario: outcome.scenario,
        queryPlan: outcome.queryPlan,
        llmId: llm.llmId,
        model: llm.model,
      };
      publish(outcome.state, agentMessage(parts, metadata), true);
    } catch (error) {
      const reason = error instanceof AgentRunError ? error.message : 'The agent failed unexpectedly';
      publish(
        this.cancelled.has(taskId) ? 'canceled' : 'failed',
        agentMessage([{ kind: 'text', text: reason }]),
        true,
      );
    } finally {
      this.cancelled.delete(taskId);
      this.taskContexts.delete(taskId);
      bus.finished();
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.cancelled.add(taskId);
    bus.publish({
      kind: 'status-update',
      taskId,
      contextId: this.taskContexts.get(taskId) ?? '',
      final: true,
      status: { state: 'canceled', timestamp: new Date().toISOString() },
    });
  }

  private conversation(contextId: string): Conversation {
    let conversation = this.conversations.get(contextId);
    if (!conversation) {
      conversation = { turns: [], contextValues: {} };
      this.conversations.set(contextId, conversation);
      // Forget the oldest conversation once the map is full (Maps iterate in insertion order).
      if (this.conversations.size > maxConversations) {
        const oldest = this.conversations.keys().next().value;
        if (oldest !== undefined) this.conversations.delete(oldest);
      }
    }
    return conversation;
  }
}
