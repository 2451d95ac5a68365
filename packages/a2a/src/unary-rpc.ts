import type { Dataworkz } from '@dataworkz/client';
import { StreamProtocolError } from './errors.js';
import { jsonRpcRequest, rpcResultOf } from './json-rpc.js';

export interface UnaryCall {
  signal: AbortSignal;
  /** Time-out for the whole call, headers and body (default: the client's `timeout`). */
  timeout?: number | undefined;
  /** What error messages call the call. */
  operation: string;
}

/**
 * One JSON-RPC request answered by one JSON body, through the client's authorizedFetch: its
 * credential, typed HTTP errors, a refreshed token after a 401, and the client's time-out and
 * `maxResponseBytes` on the body. The envelope is checked as the stream's events are.
 */
export async function callAgentRpc(
  dw: Dataworkz,
  endpoint: string,
  method: string,
  params: unknown,
  headers: Record<string, string>,
  call: UnaryCall,
  /** Given the response as soon as it arrives, to redact with the credential it was sent with. */
  onResponse: (response: Response) => void,
): Promise<unknown> {
  const request = jsonRpcRequest(method, params);
  const response = await dw.authorizedFetch(endpoint, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(request),
    signal: call.signal,
    timeout: call.timeout,
    operation: call.operation,
  });
  onResponse(response);
  const result = rpcResultOf(await response.text(), request.id, `${call.operation}: the agent's response`);
  if (result === undefined)
    throw new StreamProtocolError(`${call.operation}: the agent's response has no result`);
  return result;
}
