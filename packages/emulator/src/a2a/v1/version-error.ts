import { VersionNotSupportedError } from '@a2a-js/sdk-v1/errors';
import { JsonRpcTransportHandler } from '@a2a-js/sdk-v1/server';
import type { RpcId } from '../json-rpc.js';
import { servedVersions } from '../version.js';

/**
 * The JSON-RPC answer to a request in a version not served: `VersionNotSupportedError` (-32009) as the
 * SDK's v1 server words it, its `google.rpc.ErrorInfo` naming the version asked and those served
 * (`supportedVersions`, comma-separated: ErrorInfo metadata values are strings), whatever the method.
 */
export function versionNotSupported(id: RpcId, asked: string): unknown {
  const supportedVersions = servedVersions.join(', ');
  const error = new VersionNotSupportedError({
    message: `A2A version ${asked} is not supported; this agent serves ${supportedVersions}`,
    metadata: { requestedVersion: asked, supportedVersions: servedVersions.join(',') },
  });
  return { jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
}
