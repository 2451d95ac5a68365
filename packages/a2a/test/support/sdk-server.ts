// A minimal A2A agent built directly on @a2a-js/sdk 0.3.14's server, served over node:http the way
// the service does: per-agent `/stream`, both card paths, SSWS auth, the provided-values extension.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard, Message, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { Extensions } from '@a2a-js/sdk';
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  type RequestContext,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import { readProvidedValues } from '@dataworkz/context-values';

export const AGENT_ID = 'orders-agent';
export const LEGACY_AGENT_ID = 'legacy-agent';
export const NO_LLM_AGENT_ID = 'agent-without-llm';

export interface SdkServerOptions {
  /** The key clients must send as `SSWS <key>`. */
  apiKey: string;
  /** Write each event's JSON over several `data:` lines (pretty-printed). */
  multiLineData?: boolean;
  /** Write the body in slices of this many bytes. */
  sliceBytes?: number;
  /** Extension base of the provided-values extension. */
  extensionBase?: string;
}

interface RecordedStreamRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface SdkServer {
  url: string;
  extensionUri: string;
  requests: RecordedStreamRequest[];
  /** Streams whose HTTP response is still open. */
  readonly openStreams: number;
  /** Resolves when every stream opened so far has been closed (by either side). */
  streamsClosed(): Promise<void>;
  close(): Promise<void>;
}

function statusUpdate(
  ctx: RequestContext,
  state: TaskStatusUpdateEvent['status']['state'],
  final: boolean,
  message?: Message,
): TaskStatusUpdateEvent {
  return {
    kind: 'status-update',
    taskId: ctx.taskId,
    contextId: ctx.contextId,
    final,
    status: { state, ...(message ? { message } : {}), timestamp: new Date().toISOString() },
  };
}

function agentMessage(ctx: RequestContext, parts: Message['parts']): Message {
  return {
    kind: 'message',
    role: 'agent',
    messageId: crypto.randomUUID(),
    taskId: ctx.taskId,
    contextId: ctx.contextId,
    parts,
  };
}

function taskUpdate(ctx: RequestContext, step: string): Message {
  return agentMessage(ctx, [
    { kind: 'data', data: { step, agentId: AGENT_ID }, metadata: { type: 'SVC_STATUS_UPDATE' } },
  ]);
}

export async function startSdkServer(options: SdkServerOptions): Promise<SdkServer> {
  const extensionUri = `${options.extensionBase ?? 'https://ext.example.test'}/agents/ext/provided-values/v1`;
  const card: AgentCard = {
    name: 'Orders',
    description: 'Answers questions about orders.',
    url: 'http://placeholder/stream',
    version: '1.0.0',
    protocolVersion: '0.3.0',
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [{ uri: extensionUri, description: 'Context values', required: false }],
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'orders', name: 'Orders', description: 'Order status', tags: ['orders'] }],
  };
  const llmByMessage = new Map<string, string>();
  const turnsByContext = new Map<string, number>();
  const closers = new Set<() => void>();

  const executor: AgentExecutor = {
    async execute(ctx: RequestContext, bus: ExecutionEventBus) {
      const text = ctx.userMessage.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
      const requested = ctx.context?.requestedExtensions ?? [];
      const values = requested.includes(extensionUri)
        ? readProvidedValues(ctx.userMessage, extensionUri)
        : undefined;
      const llm = llmByMessage.get(ctx.userMessage.messageId) ?? 'agent-default-llm';
      const turn = (turnsByContext.get(ctx.contextId) ?? 0) + 1;
      turnsByContext.set(ctx.contextId, turn);
      if (!ctx.task) {
        bus.publish({
          kind: 'task',
          id: ctx.taskId,
          contextId: ctx.contextId,
          status: { state: 'submitted' },
          history: [ctx.userMessage],
        });
      }
      bus.publish(statusUpdate(ctx, 'working', false, taskUpdate(ctx, 'Planning')));
      if (text.includes('wait for me')) {
        // Holds the stream open until the client goes away or the server closes.
        await new Promise<void>((resolve) => closers.add(resolve));
        bus.finished();
        return;
      }
      bus.publish(statusUpdate(ctx, 'working', false, taskUpdate(ctx, 'Looking up orders')));
      bus.publish({
        kind: 'artifact-update',
        taskId: ctx.taskId,
        contextId: ctx.contextId,
        artifact: { artifactId: 'summary', parts: [{ kind: 'text', text: 'Order 1001: ' }] },
      });
      bus.publish({
        kind: 'artifact-update',
        taskId: ctx.taskId,
        contextId: ctx.contextId,
        append: true,
        lastChunk: true,
        artifact: { artifactId: 'summary', parts: [{ kind: 'text', text: 'shipped' }] },
      });
      if (text.includes('please fail')) {
        bus.publish(
          statusUpdate(
            ctx,
            'failed',
            true,
            agentMessage(ctx, [{ kind: 'text', text: 'The orders system is unreachable.' }]),
          ),
        );
      } else if (text.includes('ask me') && !ctx.task) {
        bus.publish(
          statusUpdate(
            ctx,
            'input-required',
            true,
            agentMessage(ctx, [{ kind: 'text', text: 'Which order?' }]),
          ),
        );
      } else {
        const name = typeof values?.userName === 'string' ? values.userName : 'there';
        const answer = `Hello ${name}. You said "${text}" (llm ${llm}, turn ${turn}${ctx.task ? `, continuing task ${ctx.task.id}` : ''}).`;
        bus.publish(
          statusUpdate(ctx, 'completed', true, agentMessage(ctx, [{ kind: 'text', text: answer }])),
        );
      }
      bus.finished();
    },
    async cancelTask() {},
  };
  const handler = new JsonRpcTransportHandler(
    new DefaultRequestHandler(card, new InMemoryTaskStore(), executor),
  );
  const requests: RecordedStreamRequest[] = [];
  let open = 0;
  let opened = 0;
  let closed = 0;
  const closeWaiters: Array<() => void> = [];

  const sendJson = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const write = async (res: ServerResponse, text: string) => {
    const slice = options.sliceBytes;
    const bytes = Buffer.from(text);
    if (!slice) {
      res.write(bytes);
      return;
    }
    for (let at = 0; at < bytes.length; at += slice) {
      res.write(bytes.subarray(at, at + slice));
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  const frame = (payload: unknown, event?: string) => {
    const json = JSON.stringify(payload, null, options.multiLineData ? 2 : undefined);
    return `${event ? `event: ${event}\n` : ''}${json
      .split('\n')
      .map((line) => `data: ${line}`)
      .join('\n')}\n\n`;
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.headers.authorization !== `SSWS ${options.apiKey}`) {
      sendJson(res, 401, {
        status: 401,
        error: 'Unauthorized',
        message: 'Invalid API key',
        path: url.pathname,
      });
      return;
    }
    const match = /^\/api\/agents\/v1\/a2a\/([^/]+)\/(\.well-known\/agent(?:-card)?\.json|stream)$/.exec(
      url.pathname,
    );
    const agentId = match ? decodeURIComponent(match[1] as string) : undefined;
    if (!match || ![AGENT_ID, LEGACY_AGENT_ID, NO_LLM_AGENT_ID].includes(agentId as string)) {
      sendJson(res, 404, { status: 404, error: 'Not Found', message: 'No such agent', path: url.pathname });
      return;
    }
    if (match[2] !== 'stream') {
      if (agentId === LEGACY_AGENT_ID && (match[2] as string).endsWith('agent-card.json')) {
        sendJson(res, 404, {
          status: 404,
          error: 'Not Found',
          message: 'No agent-card.json here',
          path: url.pathname,
        });
      } else
        sendJson(res, 200, {
          ...card,
          url: `http://${req.headers.host}/api/agents/v1/a2a/${agentId}/stream`,
        });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers, body });
    const llmId = url.searchParams.get('llmId');
    if (agentId === NO_LLM_AGENT_ID && !llmId) {
      sendJson(res, 400, {
        status: 400,
        error: 'Bad Request',
        message: 'No LLM could be determined for the agent',
        path: url.pathname,
      });
      return;
    }
    const messageId = (body as { params?: { message?: { messageId?: string } } }).params?.message?.messageId;
    if (llmId && messageId) llmByMessage.set(messageId, llmId);
    const header = req.headers['x-a2a-extensions'];
    const context = new ServerCallContext(
      Extensions.parseServiceParameter(Array.isArray(header) ? header.join(',') : header),
    );
    const result = await handler.handle(body, context);
    if (!(Symbol.asyncIterator in Object(result))) {
      sendJson(res, 200, result);
      return;
    }
    open++;
    opened++;
    res.on('close', () => {
      open--;
      closed++;
      for (const resolve of closers) resolve();
      closers.clear();
      if (closed === opened) for (const waiter of closeWaiters.splice(0)) waiter();
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    try {
      for await (const event of result as AsyncGenerator<unknown>) {
        if (res.destroyed) break;
        await write(res, frame(event));
      }
    } catch (error) {
      const id = (body as { id?: unknown }).id ?? null;
      await write(
        res,
        frame({ jsonrpc: '2.0', id, error: { code: -32603, message: String(error) } }, 'error'),
      );
    }
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    extensionUri,
    requests,
    get openStreams() {
      return open;
    },
    streamsClosed: () =>
      closed === opened ? Promise.resolve() : new Promise<void>((resolve) => closeWaiters.push(resolve)),
    close: async () => {
      for (const resolve of closers) resolve();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
