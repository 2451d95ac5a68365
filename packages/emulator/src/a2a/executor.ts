import type { Message, Task, TaskArtifactUpdateEvent, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext, User } from '@a2a-js/sdk/server';
import { runAgent } from '../agents/engine.js';
import { type AgentDefinition, AgentRunError } from '../agents/model.js';
import type { AgentStep } from '../agents/step.js';
import type { ToolSources } from '../agents/toolbox.js';
import { BoundedStore, type StoreBounds } from '../bounded-store.js';
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
  /** The runs in progress: a cancel aborts the run's signal, which also ends its pause between steps. */
  private readonly runs = new Map<string, AbortController>();
  /**
   * The context of each task not yet ended (running, or waiting for input), for the `canceled` status a
   * cancel publishes: both versions' status updates carry it, and the SDK hands a cancel only the task id.
   * Bounded as the task store is.
   */
  private readonly openTasks: BoundedStore<string, { contextId: string }>;

  constructor(
    private readonly agent: AgentDefinition,
    private readonly sources: ToolSources,
    private readonly conversations: ConversationStore,
    private readonly extensionUri: string,
    private readonly pace: { stepDelayMs: number; answerChunkChars: number },
    private readonly log: Log,
    openTaskBounds: StoreBounds,
  ) {
    this.openTasks = new BoundedStore(openTaskBounds);
  }

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
    const run = new AbortController();
    const onStep = async (step: AgentStep) => {
      if (this.pace.stepDelayMs > 0) await sleep(this.pace.stepDelayMs, run.signal);
      if (run.signal.aborted) throw new AgentRunError('The task was cancelled');
      publish(
        'working',
        agentMessage([{ kind: 'data', data: { ...step }, metadata: { type: 'SVC_STATUS_UPDATE' } }]),
        false,
      );
    };

    this.runs.set(taskId, run);
    this.openTasks.set(taskId, { contextId }, contextId.length);
    let waiting = false;
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
      if (outcome.state === 'completed')
        await this.streamAnswer(taskId, contextId, outcome.answer, bus, run.signal);
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
      waiting = outcome.state === 'input-required';
      publish(outcome.state, agentMessage(parts, metadata), true);
    } catch (error) {
      if (!(error instanceof AgentRunError))
        this.log.error(`Agent ${this.agent.name} failed unexpectedly`, error);
      const reason = error instanceof AgentRunError ? error.message : 'The agent failed unexpectedly';
      publish(
        run.signal.aborted ? 'canceled' : 'failed',
        agentMessage([{ kind: 'text', text: reason }]),
        true,
      );
    } finally {
      this.runs.delete(taskId);
      // A task waiting for input can still be cancelled: its context is kept until then.
      if (!waiting) this.openTasks.delete(taskId);
      bus.finished();
    }
  }

  /** The answer as an artifact in chunks, when asked for: the way agents that stream their output send it. */
  private async streamAnswer(
    taskId: string,
    contextId: string,
    answer: string,
    bus: ExecutionEventBus,
    cancelled: AbortSignal,
  ) {
    const size = this.pace.answerChunkChars;
    if (size <= 0) return;
    const chunks = Array.from(answer);
    for (let at = 0; at < chunks.length; at += size) {
      if (this.pace.stepDelayMs > 0) await sleep(this.pace.stepDelayMs, cancelled);
      if (cancelled.aborted) throw new AgentRunError('The task was cancelled');
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

  /**
   * Cancels a task in any state that has not ended (submitted, working, waiting for input): the run, if
   * one is in progress, stops at its next step, and the `canceled` status goes out at once with the task's
   * context (which v1.0 requires of every status update, as v0.3's schema does).
   */
  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.runs.get(taskId)?.abort();
    const contextId = this.openTasks.get(taskId)?.contextId;
    this.openTasks.delete(taskId);
    if (contextId === undefined) {
      // Forgotten (the bound passed) or never run here: the SDK's own cancel path has the stored task.
      throw new AgentRunError(`Task ${taskId} is not known to this agent's runs`);
    }
    bus.publish({
      kind: 'status-update',
      taskId,
      contextId,
      final: true,
      status: { state: 'canceled', timestamp: new Date().toISOString() },
    });
  }
}
