import { Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import {
  A2AError,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import type { AgentDefinition } from '../agents/model.js';
import { HttpError } from '../http/errors.js';
import type { Exchange } from '../http/exchange.js';
import type { ServiceState } from '../state.js';
import { agentCard } from './card.js';
import { DataworkzAgentExecutor, StreamCaller } from './executor.js';

export interface StreamLimits {
  streamTimeoutMs: number;
  maxConcurrentStreams: number;
  /** Pause before each task update. */
  stepDelayMs: number;
}

const streamingMethods = new Set(['message/stream', 'tasks/resubscribe']);

/** The A2A side of the emulator: one SDK request handler (task store and executor) per agent. */
export class A2AServer {
  private readonly handlers = new Map<string, JsonRpcTransportHandler>();
  openStreams = 0;

  constructor(
    private readonly state: ServiceState,
    private readonly baseUrl: () => string,
    private readonly extensionUri: string,
    private readonly limits: StreamLimits,
  ) {}

  private transport(agent: AgentDefinition): JsonRpcTransportHandler {
    let transport = this.handlers.get(agent.agentId);
    if (!transport) {
      const executor = new DataworkzAgentExecutor(
        agent,
        this.state.knowledge,
        this.extensionUri,
        this.limits.stepDelayMs,
      );
      const card = agentCard(agent, this.baseUrl(), this.extensionUri);
      transport = new JsonRpcTransportHandler(
        new DefaultRequestHandler(card, new InMemoryTaskStore(), executor),
      );
      this.handlers.set(agent.agentId, transport);
    }
    return transport;
  }

  /** `POST .../a2a/{agentId}/stream`: JSON-RPC over SSE. The LLM is chosen before any event is sent. */
  async handle(ex: Exchange): Promise<void> {
    const agent = this.state.agent(ex.params.agentId ?? '');
    const llm = this.state.selectAgentLlm(agent, ex.query.optional('llmId'));
    let body: unknown;
    try {
      body = JSON.parse(ex.body);
    } catch {
      throw new HttpError(400, 'The request body is not valid JSON', {}, 'BAD_REQUEST_BODY');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError(400, 'The request body must be a JSON-RPC request object', {}, 'BAD_REQUEST_BODY');
    }
    const method = (body as Record<string, unknown>).method;
    if (
      typeof method === 'string' &&
      streamingMethods.has(method) &&
      this.openStreams >= this.limits.maxConcurrentStreams
    ) {
      throw new HttpError(
        429,
        'Too many open streams; retry shortly',
        { 'retry-after': '1' },
        'TOO_MANY_STREAMS',
      );
    }
    const params = (body as Record<string, unknown>).params as { message?: unknown } | undefined;
    if (
      (method === 'message/stream' || method === 'message/send') &&
      (typeof params?.message !== 'object' || params.message === null || Array.isArray(params.message))
    ) {
      // The SDK would fail on a missing message with an internal error; it is the caller's mistake.
      const id = (body as { id?: unknown }).id;
      ex.reply.json(200, {
        jsonrpc: '2.0',
        id: typeof id === 'string' || typeof id === 'number' ? id : null,
        error: A2AError.invalidParams('params.message must be a message object').toJSONRPCError(),
      });
      return;
    }
    const header = ex.req.headers[HTTP_EXTENSION_HEADER.toLowerCase()];
    const context = new ServerCallContext(
      Extensions.parseServiceParameter(Array.isArray(header) ? header.join(',') : header),
      new StreamCaller(llm),
    );
    const result = await this.transport(agent).handle(body, context);
    // The executor activates the extension only once events flow; the headers go out before that.
    const extensionHeaders: Record<string, string> = context.requestedExtensions?.includes(this.extensionUri)
      ? { [HTTP_EXTENSION_HEADER.toLowerCase()]: this.extensionUri }
      : {};
    if (!isAsyncIterable(result)) {
      ex.reply.json(200, result, extensionHeaders);
      return;
    }
    const id = (body as { id?: unknown }).id;
    await this.pipe(
      ex,
      result,
      extensionHeaders,
      typeof id === 'string' || typeof id === 'number' ? id : null,
    );
  }

  private async pipe(
    ex: Exchange,
    events: AsyncGenerator<unknown, void, undefined>,
    headers: Record<string, string>,
    id: string | number | null,
  ) {
    this.openStreams += 1;
    let timer: NodeJS.Timeout | undefined;
    const stopped = new Promise<'stop'>((resolve) => {
      timer = setTimeout(() => resolve('stop'), this.limits.streamTimeoutMs);
      ex.onClose(() => resolve('stop'));
    });
    try {
      ex.reply.startStream(headers);
      for (;;) {
        const next = await Promise.race([events.next(), stopped]);
        if (next === 'stop' || next.done) break;
        if (!ex.reply.event(next.value)) break;
      }
    } catch (error) {
      // Errors raised inside the SDK's stream (invalid params, unknown task) become a JSON-RPC error event.
      const a2aError = error instanceof A2AError ? error : A2AError.internalError('The stream failed');
      ex.reply.event({ jsonrpc: '2.0', id, error: a2aError.toJSONRPCError() });
    } finally {
      clearTimeout(timer);
      this.openStreams -= 1;
      // Let the SDK's generator finish in the background; it stops once the agent publishes its final event.
      events.return(undefined).catch(() => {});
      ex.reply.endStream();
    }
  }
}

function isAsyncIterable(value: unknown): value is AsyncGenerator<unknown, void, undefined> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] === 'function';
}
