import { HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { JsonRpcTransport } from '@a2a-js/sdk/client';
import type { A2AStreamEvent, A2ATask } from '../a2a-types.js';
import { StreamProtocolError } from '../errors.js';
import type { AgentTransport, CallOptions, ProtocolVersion } from './agent-transport.js';
import type { SdkFetch } from './fetch.js';
import { v1Transport } from './v1-transport.js';

/** The SDK's request options: the signal, and the extensions header (v0.3 names it `X-A2A-Extensions`). */
function requestOptions(options: CallOptions) {
  const serviceParameters: Record<string, string> = {};
  if (options.extensions) serviceParameters[HTTP_EXTENSION_HEADER] = options.extensions;
  return { signal: options.signal, serviceParameters };
}

type Events = AsyncGenerator<A2AStreamEvent, void, undefined>;

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
  if (
    typeof task !== 'object' ||
    task === null ||
    typeof task.id !== 'string' ||
    typeof task.status !== 'object' ||
    task.status === null
  ) {
    throw new StreamProtocolError("The agent's result is not a task");
  }
  return result as A2ATask;
}

/**
 * The v0.3 transport: `@a2a-js/sdk` 0.3.14's `JsonRpcTransport`, used directly (its `Client` would
 * fall back to `message/send` when a card does not say it streams). It hands over the service's JSON
 * untouched: `kind`, `final` and every field the contract does not name.
 */
function v03Transport(endpoint: string, fetchImpl: SdkFetch): AgentTransport {
  // One transport per call: its JSON-RPC ids count from 1, and it holds nothing else.
  const sdk = () => new JsonRpcTransport({ endpoint, fetchImpl });
  return {
    version: '0.3',
    // The SDK's generators, as they are: the events pass without another async step in between.
    stream: (message, options) => sdk().sendMessageStream({ message }, requestOptions(options)) as Events,
    resubscribe: (taskId, options) =>
      sdk().resubscribeTask({ id: taskId }, requestOptions(options)) as Events,
    getTask: async (params, options) => {
      const request =
        params.historyLength === undefined
          ? { id: params.id }
          : { id: params.id, historyLength: params.historyLength };
      return asTask(await sdk().getTask(request, requestOptions(options)));
    },
    cancelTask: async (params, options) =>
      asTask(await sdk().cancelTask({ id: params.id }, requestOptions(options))),
  };
}
