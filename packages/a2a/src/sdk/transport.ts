import { HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { JsonRpcTransport } from '@a2a-js/sdk/client';
import type { A2AMessage, A2AStreamEvent, A2ATask } from '../a2a-types.js';
import { StreamProtocolError } from '../errors.js';
import type { ProtocolVersion } from '../protocol.js';
import type { SdkFetch } from './fetch.js';
import { messageToV1, streamEventFromV1, taskFromV1 } from './v1-adapter.js';

/** What one call gives the transport beside its params. */
interface CallOptions {
  signal: AbortSignal;
  /** The A2A extension URIs to activate, comma-separated, sent in the version's extensions header. */
  extensions?: string | undefined;
}

export interface TaskParams {
  id: string;
  historyLength?: number | undefined;
}

type Events = AsyncGenerator<A2AStreamEvent, void, undefined>;

/**
 * The A2A calls a run makes, made by the official SDK's client transport of one version. Events and
 * tasks come out in A2A v0.3 shape whatever the version spoken: as the service sent them under v0.3,
 * mapped from the SDK's v1 objects under v1.0.
 */
export interface AgentTransport {
  stream(message: A2AMessage, options: CallOptions): Events;
  resubscribe(taskId: string, options: CallOptions): Events;
  getTask(params: TaskParams, options: CallOptions): Promise<A2ATask>;
  cancelTask(params: TaskParams, options: CallOptions): Promise<A2ATask>;
}

/** The transport of a version for an agent's endpoint, every request made through `fetchImpl`. */
export function transportFor(
  version: ProtocolVersion,
  endpoint: string,
  fetchImpl: SdkFetch,
): AgentTransport {
  return version === '1.0' ? v1Transport(endpoint, fetchImpl) : v03Transport(endpoint, fetchImpl);
}

/** A task call's result, checked: the SDK passes on whatever JSON came. */
function asTask(result: unknown): A2ATask {
  const task = result as { id?: unknown; status?: unknown } | null;
  if (typeof task?.id !== 'string' || typeof task.status !== 'object' || task.status === null) {
    throw new StreamProtocolError("The agent's result is not a task");
  }
  return result as A2ATask;
}

/** The SDK's request options: the signal, and the extensions header (v0.3 names it `X-A2A-Extensions`). */
function requestOptions(options: CallOptions, headers: Record<string, string>, extensionsHeader: string) {
  const serviceParameters = options.extensions
    ? { ...headers, [extensionsHeader]: options.extensions }
    : headers;
  return { signal: options.signal, serviceParameters };
}

/**
 * The v0.3 transport: `@a2a-js/sdk` 0.3.14's `JsonRpcTransport`, used directly (its `Client` would
 * fall back to `message/send` when a card does not say it streams). It hands over the service's JSON
 * untouched: `kind`, `final` and every field the contract does not name.
 */
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

/**
 * The v1.0 transport: the `@a2a-js/sdk` 1.x client for JSON-RPC, its objects mapped to the v0.3
 * shapes the run reads. The SDK is loaded on the first v1.0 call only: the service speaks v0.3, and
 * the 1.x client is several times the size of 0.3's. Its header names (`A2A-Version`,
 * `A2A-Extensions`) are written here for the same reason.
 */
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
