import type { Message } from '@a2a-js/sdk';
import {
  A2AError,
  type DefaultRequestHandler,
  type ExecutionEventBusManager,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import type { Log } from '../logger.js';
import { type RpcRequest, rpcError, rpcResult, taskIdParam } from './json-rpc.js';
import { checkMessage } from './message-check.js';
import type { AgentTaskStore } from './task-memory.js';

/** An answer to a JSON-RPC request: one JSON body, or the events of a stream. */
export type RpcOutcome =
  | { kind: 'json'; body: unknown }
  | { kind: 'stream'; events: AsyncGenerator<unknown, void, undefined> };

const streamingMethods = new Set(['message/stream', 'tasks/resubscribe']);
const finalStates = new Set(['completed', 'failed', 'canceled', 'rejected']);

export function isStreamingMethod(method: unknown): boolean {
  return typeof method === 'string' && streamingMethods.has(method);
}

/**
 * The JSON-RPC methods of one agent, on the SDK's DefaultRequestHandler. It stands where the SDK's
 * JsonRpcTransportHandler would: params are checked here first, so no caller's mistake becomes an
 * error inside the SDK, and what goes wrong is reported to the emulator's logger, not the console.
 */
export class AgentRpc {
  constructor(
    private readonly handler: DefaultRequestHandler,
    private readonly tasks: AgentTaskStore,
    private readonly buses: ExecutionEventBusManager,
    private readonly maxTextLength: number,
    private readonly log: Log,
  ) {}

  async call(request: RpcRequest, context: ServerCallContext): Promise<RpcOutcome> {
    const { id, method, params } = request;
    if (isStreamingMethod(method)) {
      // Bad params are answered as one JSON-RPC error, before a stream opens.
      let checked = params;
      try {
        if (method === 'message/stream') checked = this.messageParams(params);
        else taskIdParam(params);
      } catch (error) {
        return { kind: 'json', body: rpcError(id, this.toA2AError(method, error)) };
      }
      return { kind: 'stream', events: this.stream(method, checked, context) };
    }
    try {
      return { kind: 'json', body: rpcResult(id, await this.unary(method, params, context)) };
    } catch (error) {
      return { kind: 'json', body: rpcError(id, this.toA2AError(method, error)) };
    }
  }

  /** A failure as the A2A error the caller receives; what is not the caller's mistake is logged as an error. */
  toA2AError(method: string, error: unknown): A2AError {
    if (error instanceof A2AError) {
      this.log.debug(`A2A ${method} refused: ${error.message} (${error.code})`);
      return error;
    }
    this.log.error(`A2A ${method} failed inside the emulator`, error);
    return A2AError.internalError('The agent server failed to handle the request');
  }

  private async unary(method: string, params: Record<string, unknown>, context: ServerCallContext) {
    switch (method) {
      case 'message/send':
        return this.handler.sendMessage(this.messageParams(params), context);
      case 'tasks/get': {
        const { historyLength } = params;
        if (
          historyLength !== undefined &&
          !(Number.isInteger(historyLength) && (historyLength as number) >= 0)
        )
          throw A2AError.invalidParams('params.historyLength must be a non-negative integer');
        return this.handler.getTask({ ...params, id: taskIdParam(params) }, context);
      }
      case 'tasks/cancel':
        return this.handler.cancelTask({ ...params, id: taskIdParam(params) }, context);
      case 'tasks/pushNotificationConfig/set':
      case 'tasks/pushNotificationConfig/get':
      case 'tasks/pushNotificationConfig/list':
      case 'tasks/pushNotificationConfig/delete':
        throw A2AError.pushNotificationNotSupported();
      case 'agent/getAuthenticatedExtendedCard':
        return this.handler.getAuthenticatedExtendedAgentCard(context);
      default:
        throw A2AError.methodNotFound(method);
    }
  }

  private async *stream(method: string, params: Record<string, unknown>, context: ServerCallContext) {
    if (method === 'message/stream') {
      yield* this.handler.sendMessageStream(params as { message: Message }, context);
      return;
    }
    const taskId = taskIdParam(params);
    const task = await this.tasks.load(taskId, context);
    if (!task) throw A2AError.taskNotFound(taskId);
    // A task waiting for input has no run to follow: it is all there is to send.
    if (!finalStates.has(task.status.state) && !this.buses.getByTaskId(taskId)) {
      yield task;
      return;
    }
    yield* this.handler.resubscribe({ ...params, id: taskId }, context);
  }

  /**
   * The message params, checked; references to tasks this agent does not know are left out (the SDK
   * would print a warning for each), and repeated ones said once (the SDK loads each it is given).
   */
  private messageParams(params: Record<string, unknown>): { message: Message } & Record<string, unknown> {
    const message = checkMessage(params.message, this.maxTextLength);
    const references = message.referenceTaskIds;
    if (!references?.length) return { ...params, message };
    const known = [...new Set(references)].filter((taskId) => this.tasks.has(taskId));
    if (known.length < references.length) {
      this.log.debug(`A2A message ${message.messageId}: unknown or repeated referenceTaskIds left out`);
    }
    return { ...params, message: { ...message, referenceTaskIds: known } };
  }
}
