import { type Dataworkz, InvalidParameterError } from '@dataworkz/client';
import type { A2ATask } from './a2a-types.js';
import { agentEndpoint } from './endpoint.js';
import { StreamProtocolError } from './errors.js';
import { toRunError } from './failure.js';
import { callAgentRpc } from './unary-rpc.js';

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

function isTask(value: unknown): value is A2ATask {
  if (typeof value !== 'object' || value === null) return false;
  const { id, status } = value as { id?: unknown; status?: unknown };
  return typeof id === 'string' && typeof status === 'object' && status !== null;
}

// The client's authorizedFetch adds the credential, maps HTTP statuses to its errors, refreshes a
// token after a 401, and bounds the call's time and the body read (maxResponseBytes).
async function callTask(
  dw: Dataworkz,
  operation: string,
  method: string,
  agentId: string,
  params: { id: string; historyLength?: number },
  options: TaskCallOptions,
): Promise<A2ATask> {
  const { signal, timeout } = options;
  if (typeof params.id !== 'string' || params.id === '') {
    throw new InvalidParameterError('taskId', 'taskId must be a non-empty string.');
  }
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let response: Response | undefined;
  try {
    const call = { signal: controller.signal, timeout, operation };
    const result = await callAgentRpc(dw, agentEndpoint(dw.baseUrl, agentId), method, params, call, (r) => {
      response = r;
    });
    if (!isTask(result)) throw new StreamProtocolError(`${operation}: the agent's result is not a task`);
    return result;
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
  const params = historyLength === undefined ? { id: taskId } : { id: taskId, historyLength };
  return callTask(dw, 'getTask', 'tasks/get', agentId, params, options);
}

/** Asks the agent to cancel a running task (A2A `tasks/cancel`); resolves with the task as it then stands. */
export async function cancelTask(
  dw: Dataworkz,
  agentId: string,
  taskId: string,
  options: TaskCallOptions = {},
): Promise<A2ATask> {
  return callTask(dw, 'cancelTask', 'tasks/cancel', agentId, { id: taskId }, options);
}
