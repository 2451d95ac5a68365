import type { AgentCard as LegacyCard } from '@a2a-js/sdk';
import {
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
} from '@a2a-js/sdk-v1/server';
import type { DataworkzAgentExecutor, StreamCaller } from '../executor.js';
import type { RpcRequest } from '../json-rpc.js';
import { v1Card } from './card.js';
import { V1AgentExecutor } from './executor.js';

/** What one v1 request comes to: a JSON-RPC response, or the responses of a stream. */
export type V1Outcome =
  | { kind: 'json'; body: unknown }
  | { kind: 'stream'; events: AsyncGenerator<unknown, void, undefined> };

/** One agent under A2A v1.0, on the official SDK's v1 server: its request handler and JSON-RPC transport. */
export class V1AgentServer {
  private readonly transport: JsonRpcTransportHandler;

  constructor(card: LegacyCard, executor: DataworkzAgentExecutor) {
    const handler = new DefaultRequestHandler(
      v1Card(card),
      new InMemoryTaskStore(),
      new V1AgentExecutor(executor),
      new DefaultExecutionEventBusManager(),
    );
    this.transport = new JsonRpcTransportHandler(handler);
  }

  /** Answers a request that asked for v1.0; `extensions` is the request's `A2A-Extensions` header. */
  async call(
    request: RpcRequest,
    caller: StreamCaller,
    extensions: string | undefined,
  ): Promise<{ outcome: V1Outcome; context: ServerCallContext }> {
    const requestedExtensions = (extensions ?? '')
      .split(',')
      .map((uri) => uri.trim())
      .filter(Boolean);
    const context = new ServerCallContext({ requestedExtensions, user: caller, requestedVersion: '1.0' });
    // The envelope was checked (and its `jsonrpc` read) already; the SDK checks it again.
    const answer = await this.transport.handle({ jsonrpc: '2.0', ...request }, context);
    const outcome: V1Outcome =
      Symbol.asyncIterator in (answer as object)
        ? { kind: 'stream', events: answer as AsyncGenerator<unknown, void, undefined> }
        : { kind: 'json', body: answer };
    return { outcome, context };
  }

  /** The JSON-RPC error for a failure inside a stream, as the SDK's v1 server words it. */
  errorBody(id: unknown, error: unknown): unknown {
    return { jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
  }
}
