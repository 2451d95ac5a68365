import type { AgentDefinition } from '../agents/model.js';
import type { Exchange } from '../http/exchange.js';
import { checkJsonDepth } from '../http/json-body.js';
import type { StreamSlots } from '../http/stream-slots.js';
import type { Limits } from '../limits.js';
import type { Log } from '../logger.js';
import { unref } from '../neutral/timers.js';
import type { ServiceState } from '../state.js';
import type { AgentRpc } from './agent-rpc.js';
import { agentCard } from './card.js';
import { ConversationStore } from './conversations.js';
import { DataworkzAgentExecutor, StreamCaller } from './executor.js';
import type { RpcId, RpcRequest } from './json-rpc.js';
import type * as Sdk from './sdk-parts.js';
import { TaskMemory } from './task-memory.js';
import type * as V1 from './v1/index.js';

export interface StreamLimits
  extends Pick<
    Limits,
    | 'streamTimeoutMs'
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

// v1.0's streaming methods, which count against the open-stream cap as v0.3's do.
const V1_STREAMING_METHODS = new Set(['SendStreamingMessage', 'SubscribeToTask']);

/** The A2A side of the emulator: one SDK request handler per agent, over shared, bounded task and conversation stores. */
export class A2AServer {
  private readonly agents = new Map<string, AgentRpc>();
  private readonly v1Agents = new Map<string, V1.V1AgentServer>();
  // Loaded only when asked for: the v0.3 emulator (in a browser page, say) does without the v1 SDK.
  private v1Module: Promise<typeof V1> | undefined;
  // Loaded on the first A2A request: a start that serves no agent does without the SDK.
  private sdkModule: Promise<typeof Sdk> | undefined;
  readonly tasks: TaskMemory;
  readonly conversations: ConversationStore;

  constructor(
    private readonly state: ServiceState,
    private readonly extensionUri: string,
    private readonly limits: StreamLimits,
    private readonly log: Log,
    /** The A2A version the agents speak: v0.3 (the service's), or v1.0 on the SDK's v1 server. */
    readonly version: '0.3' | '1.0' = '0.3',
    /** The emulator's open-stream slots, which replayed streams share. */
    private readonly slots: StreamSlots,
  ) {
    this.tasks = new TaskMemory(limits);
    this.conversations = new ConversationStore(limits);
  }

  private executorFor(agent: AgentDefinition): DataworkzAgentExecutor {
    return new DataworkzAgentExecutor(
      agent,
      this.state,
      this.conversations,
      this.extensionUri,
      { stepDelayMs: this.limits.stepDelayMs, answerChunkChars: this.limits.answerChunkChars },
      this.log,
    );
  }

  private sdk(): Promise<typeof Sdk> {
    this.sdkModule ??= import('./sdk-parts.js');
    return this.sdkModule;
  }

  private v1(): Promise<typeof V1> {
    this.v1Module ??= import('./v1/index.js');
    return this.v1Module;
  }

  /** An agent's card in the version spoken, as JSON. */
  async cardJson(agent: AgentDefinition, origin: string): Promise<unknown> {
    const card = agentCard(agent, origin, this.extensionUri);
    return this.version === '1.0' ? (await this.v1()).v1CardJson(card) : card;
  }

  /** The agent's v1 server; its card names the origin of the first request that reached it. */
  private async v1For(agent: AgentDefinition, origin: string): Promise<V1.V1AgentServer> {
    const { V1AgentServer } = await this.v1();
    let server = this.v1Agents.get(agent.agentId);
    if (!server) {
      server = new V1AgentServer(agentCard(agent, origin, this.extensionUri), this.executorFor(agent));
      this.v1Agents.set(agent.agentId, server);
    }
    return server;
  }

  /** The agent's handler; its card (which the SDK keeps) names the origin of the first request that reached it. */
  private rpcFor(sdk: typeof Sdk, agent: AgentDefinition, origin: string): AgentRpc {
    let rpc = this.agents.get(agent.agentId);
    if (!rpc) {
      const executor = this.executorFor(agent);
      const store = this.tasks.storeFor(agent.agentId);
      const buses = new sdk.DefaultExecutionEventBusManager();
      const card = agentCard(agent, origin, this.extensionUri);
      const handler = new sdk.DefaultRequestHandler(card, store, executor, buses);
      rpc = new sdk.AgentRpc(handler, store, buses, this.limits.maxTextLength, this.log);
      this.agents.set(agent.agentId, rpc);
    }
    return rpc;
  }

  /** `POST .../a2a/{agentId}/stream`: JSON-RPC over SSE. The LLM is chosen before any event is sent. */
  async handle(ex: Exchange): Promise<void> {
    const agent = this.state.agent(ex.params.agentId ?? '');
    const llm = this.state.selectAgentLlm(agent, ex.query.optional('llmId'));
    // A body nested past the limit is refused like one too large: before anything parses it.
    checkJsonDepth(ex.body, this.limits.maxJsonDepth);
    const sdk = await this.sdk();
    // From here what is wrong with the body is a JSON-RPC error, answered with HTTP 200 as the binding says.
    const read = sdk.readRpcBody(ex.body);
    if (!read.ok) {
      this.log.debug(`A2A request refused: ${read.error.message} (${read.error.code})`);
      ex.reply.json(200, sdk.rpcError(read.id, read.error));
      return;
    }
    const request = read.request;
    const streaming =
      this.version === '1.0'
        ? V1_STREAMING_METHODS.has(request.method)
        : sdk.isStreamingMethod(request.method);
    // The slot is taken here, as the request is admitted, and given back however the request ends.
    const release = streaming ? this.slots.reserve() : undefined;
    try {
      await this.answer(ex, agent, new StreamCaller(llm), sdk, request);
    } finally {
      release?.();
    }
  }

  /** A request admitted: the SDK's handler (or its v1 transport) answers it, a stream event by event. */
  private async answer(
    ex: Exchange,
    agent: AgentDefinition,
    caller: StreamCaller,
    sdk: typeof Sdk,
    request: RpcRequest,
  ): Promise<void> {
    if (this.version === '1.0') {
      await this.handleV1(ex, agent, caller, request);
      return;
    }
    const extensionHeader = sdk.HTTP_EXTENSION_HEADER.toLowerCase();
    const context = new sdk.ServerCallContext(
      sdk.Extensions.parseServiceParameter(ex.headers[extensionHeader]),
      caller,
    );
    const rpc = this.rpcFor(sdk, agent, ex.origin);
    const outcome = await rpc.call(request, context);
    // The executor activates the extension only once events flow; the headers go out before that.
    const extensionHeaders: Record<string, string> = context.requestedExtensions?.includes(this.extensionUri)
      ? { [extensionHeader]: this.extensionUri }
      : {};
    if (outcome.kind === 'json') {
      ex.reply.json(200, outcome.body, extensionHeaders);
      return;
    }
    const id: RpcId = request.id;
    await this.pipe(
      ex,
      outcome.events,
      extensionHeaders,
      (result) => ({ jsonrpc: '2.0', id, result }),
      (error) => sdk.rpcError(id, rpc.toA2AError(request.method, error)),
    );
  }

  /** A request under v1.0: the SDK's v1 transport answers it, and its stream's responses are sent as they come. */
  private async handleV1(ex: Exchange, agent: AgentDefinition, caller: StreamCaller, request: RpcRequest) {
    const server = await this.v1For(agent, ex.origin);
    const { outcome, context } = await server.call(
      request,
      caller,
      ex.headers['a2a-extensions'],
      ex.headers['a2a-version'],
    );
    const headers: Record<string, string> = context.requestedExtensions?.includes(this.extensionUri)
      ? { 'a2a-extensions': this.extensionUri }
      : {};
    if (outcome.kind === 'json') {
      ex.reply.json(200, outcome.body, headers);
      return;
    }
    await this.pipe(
      ex,
      outcome.events,
      headers,
      (response) => response,
      (error) => server.errorBody(request.id, error),
    );
  }

  /**
   * Sends a stream's events as SSE until it ends, the client leaves or the time limit passes;
   * `frame` makes each the JSON-RPC response sent, `failure` the error event for a stream that throws.
   */
  private async pipe(
    ex: Exchange,
    events: AsyncGenerator<unknown, void, undefined>,
    headers: Record<string, string>,
    frame: (value: unknown) => unknown,
    failure: (error: unknown) => unknown,
  ) {
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
        if (!ex.reply.event(frame(next.value))) break;
      }
    } catch (error) {
      // Errors raised inside the stream (invalid params, unknown task) become a JSON-RPC error event.
      ex.reply.event(failure(error));
    } finally {
      clearTimeout(timer);
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
