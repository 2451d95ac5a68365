import { HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { JsonRpcTransport } from '@a2a-js/sdk/client';
import type { A2AMessage, A2AStreamEvent, A2ATask } from '../a2a-types.js';
import { StreamProtocolError } from '../errors.js';
import type { ProtocolVersion } from '../protocol.js';
import type { SdkFetch } from './fetch.js';
import { messageToV1, streamEventFromV1, taskFromV1 } from './v1-adapter.js';

/** `extensions`: the A2A extension URIs to activate, comma-separated, for the version's header. */
type CallOptions = { signal: AbortSignal; extensions?: string | undefined };

export type TaskKind = 'getTask' | 'cancelTask';

export type TaskParams = { id: string; historyLength?: number | undefined };

type Events = AsyncGenerator<A2AStreamEvent, void, undefined>;

/** The A2A calls, made by the SDK's client transport of one version; results in v0.3 shape always. */
export interface AgentTransport {
  stream(message: A2AMessage, options: CallOptions): Events;
  resubscribe(taskId: string, options: CallOptions): Events;
  getTask(params: TaskParams, options: CallOptions): Promise<A2ATask>;
  cancelTask(params: TaskParams, options: CallOptions): Promise<A2ATask>;
}

export function transportFor(version: ProtocolVersion, endpoint: string, fetch: SdkFetch): AgentTransport {
  return version === '1.0' ? v1Transport(endpoint, fetch) : v03Transport(endpoint, fetch);
}

/** A task call's result, checked: the SDK passes on whatever JSON came. */
function asTask(result: unknown): A2ATask {
  const task = result as { id?: unknown; status?: unknown } | null;
  if (typeof task?.id !== 'string' || typeof task.status !== 'object' || task.status === null) {
    throw new StreamProtocolError("The agent's result is not a task");
  }
  return result as A2ATask;
}

/** The SDK's request options: the signal, and the headers (the extensions header as the version names it). */
function requestOptions({ signal, extensions }: CallOptions, headers: Record<string, string>, name: string) {
  return { signal, serviceParameters: extensions ? { ...headers, [name]: extensions } : headers };
}

/** `@a2a-js/sdk` 0.3.14's `JsonRpcTransport`; its `Client` would fall back to `message/send` on some cards. */
function v03Transport(endpoint: string, fetchImpl: SdkFetch): AgentTransport {
  // One SDK transport per call: its JSON-RPC ids count from 1, and it holds nothing else.
  const sdk = () => new JsonRpcTransport({ endpoint, fetchImpl });
  const options = (call: CallOptions) => requestOptions(call, {}, HTTP_EXTENSION_HEADER);
  return {
    // The SDK's generators, as they are: the events pass without another async step in between.
    stream: (message, call) => sdk().sendMessageStream({ message }, options(call)) as Events,
    resubscribe: (taskId, call) => sdk().resubscribeTask({ id: taskId }, options(call)) as Events,
    getTask: async ({ id, historyLength }, call) =>
      asTask(
        await sdk().getTask(historyLength === undefined ? { id } : { id, historyLength }, options(call)),
      ),
    cancelTask: async ({ id }, call) => asTask(await sdk().cancelTask({ id }, options(call))),
  };
}

/** The `@a2a-js/sdk` 1.x client, loaded on the first v1.0 call only: it is several times 0.3's size. */
function v1Transport(endpoint: string, fetchImpl: SdkFetch): AgentTransport {
  const sdk = async () => {
    const { JsonRpcTransportFactory } = await import('@a2a-js/sdk-v1/client');
    // Without `legacyCompat` the factory reads nothing from the card: the version is chosen already.
    return new JsonRpcTransportFactory({ fetchImpl }).create(endpoint, {} as never);
  };
  const options = (call: CallOptions) => requestOptions(call, { 'A2A-Version': '1.0' }, 'A2A-Extensions');
  return {
    async *stream(message, call) {
      const v1 = messageToV1(message);
      const params = { tenant: '', message: v1, configuration: undefined, metadata: undefined };
      for await (const response of (await sdk()).sendMessageStream(params, options(call))) {
        yield streamEventFromV1(response);
      }
    },
    async *resubscribe(taskId, call) {
      for await (const response of (await sdk()).resubscribeTask({ tenant: '', id: taskId }, options(call))) {
        yield streamEventFromV1(response);
      }
    },
    getTask: async ({ id, historyLength }, call) =>
      taskFromV1(await (await sdk()).getTask({ tenant: '', id, historyLength }, options(call))),
    cancelTask: async ({ id }, call) =>
      taskFromV1(await (await sdk()).cancelTask({ tenant: '', id, metadata: undefined }, options(call))),
  };
}
