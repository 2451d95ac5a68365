import { type Dataworkz, InvalidParameterError, type Redactor } from '@dataworkz/client';
import type { A2ATask } from './a2a-types.js';
import { checkProtocol, sendInVersion } from './agent-protocol.js';
import { agentEndpoint } from './endpoint.js';
import { toRunError } from './failure.js';
import type { A2AProtocol } from './protocol/select.js';
import type { AgentTransport, ProtocolVersion, TaskParams } from './sdk/agent-transport.js';
import { sdkFetch } from './sdk/fetch.js';
import { transportFor } from './sdk/transport.js';

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

/**
 * The SDK transport for one agent's task calls in a version already chosen, its requests made through
 * the client's authorizedFetch: the credential, HTTP statuses as the client's errors, a refreshed
 * token after a 401, and the time-out and `maxResponseBytes` on the whole answer. Its errors come out
 * typed and redacted with the credential each request sent.
 */
export function taskTransport(
  dw: Dataworkz,
  agentId: string,
  version: ProtocolVersion,
  signal: AbortSignal,
  timeout?: number | undefined,
): Pick<AgentTransport, 'getTask' | 'cancelTask'> {
  let redact: Redactor = dw.redact;
  const call = (operation: 'getTask' | 'cancelTask') => {
    const fetchImpl = sdkFetch(dw, {
      operation,
      timeout,
      onResponse: (latest) => {
        redact = latest;
      },
    });
    return transportFor(version, agentEndpoint(dw.baseUrl, agentId), fetchImpl);
  };
  const typed = async (operation: 'getTask' | 'cancelTask', params: TaskParams): Promise<A2ATask> => {
    try {
      return await call(operation)[operation](params, { signal });
    } catch (error) {
      throw redact(toRunError(error, signal, "The agent's response"));
    }
  };
  return {
    getTask: (params) => typed('getTask', params),
    cancelTask: (params) => typed('cancelTask', params),
  };
}

async function callTask(
  dw: Dataworkz,
  agentId: string,
  params: TaskParams,
  options: TaskCallOptions,
  kind: 'getTask' | 'cancelTask',
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
    return await sendInVersion(dw, agentId, protocol, controller.signal, (version) =>
      taskTransport(dw, agentId, version, controller.signal, timeout)[kind](params, {
        signal: controller.signal,
      }),
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
  return callTask(dw, agentId, params, options, 'getTask');
}

/** Asks the agent to cancel a running task (A2A `tasks/cancel`); resolves with the task as it then stands. */
export async function cancelTask(
  dw: Dataworkz,
  agentId: string,
  taskId: string,
  options: TaskCallOptions = {},
): Promise<A2ATask> {
  return callTask(dw, agentId, { id: taskId }, options, 'cancelTask');
}
