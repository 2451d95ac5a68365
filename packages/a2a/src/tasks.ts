import { type Dataworkz, InvalidParameterError } from '@dataworkz/client';
import type { A2ATask } from './a2a-types.js';
import { checkProtocol, sendInVersion } from './agent-protocol.js';
import { agentEndpoint } from './endpoint.js';
import { toRunError } from './failure.js';
import type { A2AProtocol } from './protocol/select.js';
import type { Wire } from './protocol/wire.js';
import { callAgentRpc } from './unary-rpc.js';

export interface TaskCallOptions {
  /** Aborting cancels the request; it rejects with APIUserAbortError. */
  signal?: AbortSignal | undefined;
  /** Time-out for the whole call, headers and body, in ms (default: the client's `timeout`). */
  timeout?: number | undefined;
  /** The A2A version to speak: `'auto'` (the default) follows the agent card; `'0.3'` or `'1.0'` force one. */
  protocol?: A2AProtocol | undefined;
}

export interface GetTaskOptions extends TaskCallOptions {
  /** How many of the task's latest history messages to include. */
  historyLength?: number | undefined;
}

type TaskParams = { id: string; historyLength?: number };

/**
 * One task call in a version already chosen. The client's authorizedFetch adds the credential, maps
 * HTTP statuses to its errors, refreshes a token after a 401, and bounds the time and the body read.
 */
export async function fetchTask(
  dw: Dataworkz,
  agentId: string,
  wire: Wire,
  params: TaskParams,
  options: { signal: AbortSignal; timeout?: number | undefined },
  kind: 'get' | 'cancel' = 'get',
): Promise<A2ATask> {
  let response: Response | undefined;
  const operation = kind === 'get' ? 'getTask' : 'cancelTask';
  try {
    const call = { signal: options.signal, timeout: options.timeout, operation };
    const method = wire.methods[kind];
    const endpoint = agentEndpoint(dw.baseUrl, agentId);
    const result = await callAgentRpc(dw, endpoint, method, params, wire.headers(''), call, (r) => {
      response = r;
    });
    return wire.task(result);
  } catch (error) {
    throw dw.redact(toRunError(error, options.signal, "The agent's response"), response);
  }
}

async function callTask(
  dw: Dataworkz,
  agentId: string,
  params: TaskParams,
  options: TaskCallOptions,
  kind: 'get' | 'cancel',
): Promise<A2ATask> {
  const { signal, timeout } = options;
  if (typeof params.id !== 'string' || params.id === '') {
    throw new InvalidParameterError('taskId', 'taskId must be a non-empty string.');
  }
  const protocol = checkProtocol(options.protocol);
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const call = { signal: controller.signal, timeout };
    return await sendInVersion(dw, agentId, protocol, controller.signal, (wire) =>
      fetchTask(dw, agentId, wire, params, call, kind),
    );
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
  return callTask(dw, agentId, params, options, 'get');
}

/** Asks the agent to cancel a running task (A2A `tasks/cancel`); resolves with the task as it then stands. */
export async function cancelTask(
  dw: Dataworkz,
  agentId: string,
  taskId: string,
  options: TaskCallOptions = {},
): Promise<A2ATask> {
  return callTask(dw, agentId, { id: taskId }, options, 'cancel');
}
