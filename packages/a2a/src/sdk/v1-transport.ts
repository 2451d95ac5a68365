import type { Transport } from '@a2a-js/sdk-v1/client';
import type { AgentTransport, CallOptions, TaskParams } from './agent-transport.js';
import type { SdkFetch } from './fetch.js';
import { messageToV1, streamEventFromV1, taskFromV1 } from './v1-adapter.js';

// The v1.0 header names, as the SDK 1.x exports them (`A2A_VERSION_HEADER`, `HTTP_EXTENSION_HEADER`);
// written here so that a v0.3 run never loads that SDK's modules.
const VERSION_HEADER = 'A2A-Version';
const EXTENSIONS_HEADER = 'A2A-Extensions';

function requestOptions(options: CallOptions) {
  const serviceParameters: Record<string, string> = { [VERSION_HEADER]: '1.0' };
  if (options.extensions) serviceParameters[EXTENSIONS_HEADER] = options.extensions;
  return { signal: options.signal, serviceParameters };
}

/**
 * The `@a2a-js/sdk` 1.x client transport for JSON-RPC, made by its factory. The SDK is loaded on the
 * first v1.0 call only: the service speaks v0.3, and the 1.x client is several times the size of 0.3's.
 */
async function transport(endpoint: string, fetchImpl: SdkFetch): Promise<Transport> {
  const { JsonRpcTransportFactory } = await import('@a2a-js/sdk-v1/client');
  // Without `legacyCompat` the factory reads nothing from the card: the version is chosen already.
  return new JsonRpcTransportFactory({ fetchImpl }).create(endpoint, {} as never);
}

function taskRequest(params: TaskParams) {
  return { tenant: '', id: params.id, historyLength: params.historyLength };
}

/** The v1.0 transport: the SDK 1.x client, its objects mapped to the v0.3 shapes the run reads. */
export function v1Transport(endpoint: string, fetchImpl: SdkFetch): AgentTransport {
  return {
    version: '1.0',
    async *stream(message, options) {
      const sdk = await transport(endpoint, fetchImpl);
      const params = {
        tenant: '',
        message: messageToV1(message),
        configuration: undefined,
        metadata: undefined,
      };
      for await (const response of sdk.sendMessageStream(params, requestOptions(options))) {
        yield streamEventFromV1(response);
      }
    },
    async *resubscribe(taskId, options) {
      const sdk = await transport(endpoint, fetchImpl);
      for await (const response of sdk.resubscribeTask({ tenant: '', id: taskId }, requestOptions(options))) {
        yield streamEventFromV1(response);
      }
    },
    async getTask(params, options) {
      const sdk = await transport(endpoint, fetchImpl);
      return taskFromV1(await sdk.getTask(taskRequest(params), requestOptions(options)));
    },
    async cancelTask(params, options) {
      const sdk = await transport(endpoint, fetchImpl);
      return taskFromV1(
        await sdk.cancelTask({ tenant: '', id: params.id, metadata: undefined }, requestOptions(options)),
      );
    },
  };
}
