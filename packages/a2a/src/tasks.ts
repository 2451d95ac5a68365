import { type Dataworkz, InvalidParameterError } from '@dataworkz/client';
import type { A2ATask } from './a2a-types.js';
import { AgentLink } from './agent.js';
import type { A2AProtocol } from './protocol.js';
import type { TaskKind, TaskParams } from './sdk/transport.js';

/** Options of `cancelTask`, and of `getTask` with its own. */
export interface TaskCallOptions {
  /** Aborting cancels the request; it rejects with APIUserAbortError. */
  signal?: AbortSignal | undefined;
  /** Time-out for the whole call, headers and body, in ms (default: the client's `timeout`). */
  timeout?: number | undefined;
  /** The A2A version to speak: `'auto'` (the default) follows the agent card; `'0.3'` or `'1.0'` force one. */
  protocol?: A2AProtocol | undefined;
}

/** Options of `getTask`. */
export interface GetTaskOptions extends TaskCallOptions {
  /** How many of the task's latest history messages to include. */
  historyLength?: number | undefined;
}

async function callTask(
  dw: Dataworkz,
  agentId: string,
  params: TaskParams,
  options: TaskCallOptions,
  kind: TaskKind,
): Promise<A2ATask> {
  if (typeof params.id !== 'string' || params.id === '') {
    throw new InvalidParameterError('taskId', 'taskId must be a non-empty string.');
  }
  const agent = new AgentLink(dw, agentId, options.protocol);
  const signal = options.signal ?? new AbortController().signal;
  return agent.send(signal, () => agent.task(kind, params, signal, options.timeout));
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
  return callTask(dw, agentId, { id: taskId, historyLength }, options, 'getTask');
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
