import { Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import {
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import type { AgentDefinition } from '../agents/model.js';
import { HttpError } from '../http/errors.js';
import type { Exchange } from '../http/exchange.js';
import { nestsDeeperThan } from '../http/json-body.js';
import type { Limits } from '../limits.js';
import type { Log } from '../logger.js';
import { unref } from '../neutral/timers.js';
import type { ServiceState } from '../state.js';
import { AgentRpc, isStreamingMethod } from './agent-rpc.js';
import { agentCard } from './card.js';
import { ConversationStore } from './conversations.js';
import { DataworkzAgentExecutor, StreamCaller } from './executor.js';
import { type RpcId, type RpcRequest, readRpcBody, rpcError } from './json-rpc.js';
import { TaskMemory } from './task-memory.js';

export interface StreamLimits
  extends Pick<
    Limits,
    | 'streamTimeoutMs'
    | 'maxConcurrentStreams'
    | 'maxTextLength'
    | 'maxJsonDepth'
    | 'maxTurnsPerContext'
    | 'maxConversations'
    | 'maxConversationBytes'
    | 'maxTasks'
    | 'maxTaskBytes'
  > {
  /** Pause before each task update (and each answer chunk). */
  stepDelayMs: number;
  /** Size of the answer's artifact chunks; 0 sends no artifact. */
  answerChunkChars: number;
}

/** The A2A side of the emulator: one SDK request handler per agent, over shared, bounded task and conversation stores. */
export class A2AServer {
  private readonly agents = new Map<string, AgentRpc>();
  readonly tasks: TaskMemory;
  readonly conversations: ConversationStore;
  openStreams = 0;

  constructor(
    private readonly state: ServiceState,
    private readonly extensionUri: string,
    private readonly limits: StreamLimits,
    private readonly log: Log,
  ) {
    this.tasks = new TaskMemory(limits);
    this.conversations = new ConversationStore(limits);
  }

  /** The agent's handler; its card (which the SDK keeps) names the origin of the first request that reached it. */
  private rpcFor(agent: AgentDefinition, origin: string): AgentRpc {
    let rpc = this.agents.get(agent.agentId);
    if (!rpc) {
      const executor = new DataworkzAgentExecutor(
        agent,
        this.state,
        this.conversations,
        this.extensionUri,
        { stepDelayMs: this.limits.stepDelayMs, answerChunkChars: this.limits.answerChunkChars },
        this.log,
      );
      const store = this.tasks.storeFor(agent.agentId);
      const buses = new DefaultExecutionEventBusManager();
      const card = agentCard(agent, origin, this.extensionUri);
      const handler = new DefaultRequestHandler(card, store, executor, buses);
      rpc = new AgentRpc(handler, store, buses, this.limits.maxTextLength, this.log);
      this.agents.set(agent.agentId, rpc);
    }
    return rpc;
  }

  /** `POST .../a2a/{agentId}/stream`: JSON-RPC over SSE. The LLM is chosen before any event is sent. */
  async handle(ex: Exchange): Promise<void> {
    const agent = this.state.agent(ex.params.agentId ?? '');
    const llm = this.state.selectAgentLlm(agent, ex.query.optional('llmId'));
    // A body nested past the limit is refused like one too large: before anything parses it.
    if (nestsDeeperThan(ex.body, this.limits.maxJsonDepth)) {
      throw new HttpError(
        400,
        `The request body nests arrays and objects deeper than ${this.limits.maxJsonDepth} levels`,
        {},
        'BAD_REQUEST_BODY',
      );
    }
    // From here what is wrong with the body is a JSON-RPC error, answered with HTTP 200 as the binding says.
    const read = readRpcBody(ex.body);
    if (!read.ok) {
      this.log.debug(`A2A request refused: ${read.error.message} (${read.error.code})`);
      ex.reply.json(200, rpcError(read.id, read.error));
      return;
    }
    const request = read.request;
    if (isStreamingMethod(request.method) && this.openStreams >= this.limits.maxConcurrentStreams) {
      throw new HttpError(
        429,
        'Too many open streams; retry shortly',
        { 'retry-after': '1' },
        'TOO_MANY_STREAMS',
      );
    }
    const context = new ServerCallContext(
      Extensions.parseServiceParameter(ex.headers[HTTP_EXTENSION_HEADER.toLowerCase()]),
      new StreamCaller(llm),
    );
    const rpc = this.rpcFor(agent, ex.origin);
    const outcome = await rpc.call(request, context);
    // The executor activates the extension only once events flow; the headers go out before that.
    const extensionHeaders: Record<string, string> = context.requestedExtensions?.includes(this.extensionUri)
      ? { [HTTP_EXTENSION_HEADER.toLowerCase()]: this.extensionUri }
      : {};
    if (outcome.kind === 'json') {
      ex.reply.json(200, outcome.body, extensionHeaders);
      return;
    }
    await this.pipe(ex, rpc, request, outcome.events, extensionHeaders);
  }

  private async pipe(
    ex: Exchange,
    rpc: AgentRpc,
    request: RpcRequest,
    events: AsyncGenerator<unknown, void, undefined>,
    headers: Record<string, string>,
  ) {
    const id: RpcId = request.id;
    this.openStreams += 1;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopped = new Promise<'stop'>((resolve) => {
      timer = setTimeout(() => resolve('stop'), this.limits.streamTimeoutMs);
      unref(timer);
      ex.onClose(() => resolve('stop'));
    });
    try {
      ex.reply.startStream(headers);
      for (;;) {
        const next = await Promise.race([events.next(), stopped]);
        if (next === 'stop' || next.done) break;
        if (!ex.reply.event({ jsonrpc: '2.0', id, result: next.value })) break;
      }
    } catch (error) {
      // Errors raised inside the stream (invalid params, unknown task) become a JSON-RPC error event.
      ex.reply.event(rpcError(id, rpc.toA2AError(request.method, error)));
    } finally {
      clearTimeout(timer);
      this.openStreams -= 1;
      // The run goes on without this client: the SDK's generator is read to its end in the background,
      // so the task store keeps following the run and its event bus stays open until the final event,
      // for a tasks/resubscribe to pick up. (Ending the generator would drop both at the next event.)
      drain(events);
      ex.reply.endStream();
    }
  }
}

/** Reads a generator to its end, ignoring what it yields and how it ends. */
function drain(events: AsyncGenerator<unknown, void, undefined>): void {
  void (async () => {
    try {
      for (let next = await events.next(); !next.done; next = await events.next()) {
        // Only the reading matters.
      }
    } catch {
      // A run that fails after its client left has no one to tell; the task store has its state.
    }
  })();
}
