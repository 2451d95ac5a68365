import type { Task } from '@a2a-js/sdk';
import { JsonRpcTransport } from '@a2a-js/sdk/client';
import { type Dataworkz, InvalidParameterError } from '@dataworkz/client';
import type { A2ATask } from './a2a-types.js';
import { agentEndpoint } from './endpoint.js';
import { toRunError } from './failure.js';

export interface TaskCallOptions {
  /** Aborting cancels the request; it rejects with APIUserAbortError. */
  signal?: AbortSignal | undefined;
  /** Time-out for the whole call, headers and body, in ms (default: the client's `timeout`). */
  timeout?: number | undefined;
}

export interface GetTaskOptions extends TaskCallOptions {
  /** How many of the task's latest history messages to include. */
  historyLength?: number | undefined;
}

type TaskCall = (transport: JsonRpcTransport, taskId: string, signal: AbortSignal) => Promise<Task>;

// The SDK's transport does the JSON-RPC request and response for these one-shot calls; the client's
// authorizedFetch adds the credential, maps HTTP statuses to its errors, refreshes a token after a
// 401, and bounds the call's time and the body the SDK reads (maxResponseBytes).
async function callTask(
  dw: Dataworkz,
  operation: string,
  agentId: string,
  taskId: string,
  options: TaskCallOptions,
  call: TaskCall,
): Promise<A2ATask> {
  const { signal, timeout } = options;
  if (typeof taskId !== 'string' || taskId === '') {
    throw new InvalidParameterError('taskId', 'taskId must be a non-empty string.');
  }
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let response: Response | undefined;
  const transport = new JsonRpcTransport({
    endpoint: agentEndpoint(dw.baseUrl, agentId),
    fetchImpl: async (input, init) => {
      const url = input instanceof Request ? input.url : input;
      response = await dw.authorizedFetch(url, { ...init, timeout, operation });
      return response;
    },
  });
  try {
    return (await call(transport, taskId, controller.signal)) as A2ATask;
  } catch (error) {
    throw dw.redact(toRunError(error, controller.signal, "The agent's response"), response);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** A task as the agent holds it now (A2A `tasks/get`): its status, artifacts and, optionally, history. */
export async function getTask(
  dw: Dataworkz,
  agentId: string,
  taskId: string,
  options: GetTaskOptions = {},
): Promise<A2ATask> {
  const { historyLength } = options;
  if (historyLength !== undefined && !(Number.isInteger(historyLength) && historyLength >= 0)) {
    throw new InvalidParameterError('historyLength', 'historyLength must be a non-negative integer.');
  }
  return callTask(dw, 'getTask', agentId, taskId, options, (transport, id, signal) =>
    transport.getTask(historyLength === undefined ? { id } : { id, historyLength }, { signal }),
  );
}

/** Asks the agent to cancel a running task (A2A `tasks/cancel`); resolves with the task as it then stands. */
export async function cancelTask(
  dw: Dataworkz,
  agentId: string,
  taskId: string,
  options: TaskCallOptions = {},
): Promise<A2ATask> {
  return callTask(dw, 'cancelTask', agentId, taskId, options, (transport, id, signal) =>
    transport.cancelTask({ id }, { signal }),
  );
}
