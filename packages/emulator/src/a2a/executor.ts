import type { Message, Task, TaskArtifactUpdateEvent, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext, User } from '@a2a-js/sdk/server';
import { runAgent } from '../agents/engine.js';
import { type AgentDefinition, AgentRunError } from '../agents/model.js';
import type { AgentStep } from '../agents/step.js';
import type { ToolSources } from '../agents/toolbox.js';
import type { Log } from '../logger.js';
import { randomUUID } from '../neutral/crypto.js';
import { sleep } from '../neutral/timers.js';
import type { ConversationStore } from './conversations.js';
import { pendingQuestionOf, readTaskReply, turnsOf } from './human-in-the-loop.js';
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

/** Runs one agent for the A2A server: a task update per step, then a final status with the answer. */
export class DataworkzAgentExecutor implements AgentExecutor {
  private readonly cancelled = new Set<string>();
  private readonly taskContexts = new Map<string, string>();

  constructor(
    private readonly agent: AgentDefinition,
    private readonly sources: ToolSources,
    private readonly conversations: ConversationStore,
    private readonly extensionUri: string,
    private readonly pace: { stepDelayMs: number; answerChunkChars: number },
    private readonly log: Log,
  ) {}

  // Never rejects: the SDK would print a rejection to the console; every failure ends the task instead.
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = ctx;
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
      if (this.pace.stepDelayMs > 0) await sleep(this.pace.stepDelayMs);
      if (this.cancelled.has(taskId)) throw new AgentRunError('The task was cancelled');
      publish(
        'working',
        agentMessage([{ kind: 'data', data: { ...step }, metadata: { type: 'SVC_STATUS_UPDATE' } }]),
        false,
      );
    };

    this.taskContexts.set(taskId, contextId);
    try {
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
      const user = ctx.context?.user;
      const llm = user instanceof StreamCaller ? user.llm : undefined;
      const extensionActive = ctx.context?.requestedExtensions?.includes(this.extensionUri) ?? false;
      if (extensionActive) ctx.context?.addActivatedExtension(this.extensionUri);
      const conversation = this.conversations.read(this.agent.agentId, contextId);
      const { text, resolution } = readTaskReply(userMessage, this.extensionUri);
      const pending = pendingQuestionOf(ctx.task);
      // A continued task carries its own exchange, should the context's conversation have been forgotten.
      const history =
        ctx.task && conversation.turns.length === 0 ? turnsOf(ctx.task, userMessage) : conversation.turns;
      if (!llm) throw new AgentRunError('No LLM was selected for this request');
      if (extensionActive) {
        const provided = readProvidedValues(userMessage, this.extensionUri);
        // Spread, not Object.assign: a `__proto__` key must stay a value, never become the prototype.
        conversation.contextValues = { ...conversation.contextValues, ...provided };
        this.conversations.provide(this.agent.agentId, contextId, provided);
      }
      const outcome = await runAgent(
        this.agent,
        { text, history, contextValues: { ...conversation.contextValues }, llm, pending, resolution },
        this.sources,
        onStep,
      );
      // A refused resolution with no text leaves no user words to remember.
      const heard = outcome.heard ? [{ by: 'USER' as const, text: outcome.heard }] : [];
      // Added to the conversation as it stands now: other tasks of the context may have ended meanwhile.
      this.conversations.append(
        this.agent.agentId,
        contextId,
        [...heard, { by: 'AI', text: outcome.answer }],
        history,
      );
      if (outcome.state === 'completed') await this.streamAnswer(taskId, contextId, outcome.answer, bus);
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
        ...(outcome.hitlRequests ? { hitlRequests: outcome.hitlRequests } : {}),
      };
      publish(outcome.state, agentMessage(parts, metadata), true);
    } catch (error) {
      if (!(error instanceof AgentRunError))
        this.log.error(`Agent ${this.agent.name} failed unexpectedly`, error);
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

  /** The answer as an artifact in chunks, when asked for: the way agents that stream their output send it. */
  private async streamAnswer(taskId: string, contextId: string, answer: string, bus: ExecutionEventBus) {
    const size = this.pace.answerChunkChars;
    if (size <= 0) return;
    const chunks = Array.from(answer);
    for (let at = 0; at < chunks.length; at += size) {
      if (this.pace.stepDelayMs > 0) await sleep(this.pace.stepDelayMs);
      if (this.cancelled.has(taskId)) throw new AgentRunError('The task was cancelled');
      const event: TaskArtifactUpdateEvent = {
        kind: 'artifact-update',
        taskId,
        contextId,
        append: at > 0,
        lastChunk: at + size >= chunks.length,
        artifact: {
          artifactId: `${taskId}-answer`,
          name: 'answer',
          parts: [{ kind: 'text', text: chunks.slice(at, at + size).join('') }],
        },
      };
      bus.publish(event);
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
}
