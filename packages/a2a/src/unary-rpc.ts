import type { Dataworkz } from '@dataworkz/client';
import { StreamProtocolError } from './errors.js';
import { jsonRpcErrorOf, jsonRpcRequest } from './json-rpc.js';

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
  const text = await response.text();
  // The body is not quoted: what is wrong with it is enough, and quoting could carry a credential.
  const malformed = (what: string) => new StreamProtocolError(`${call.operation}: ${what}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // V8's SyntaxError quotes a cut of the text, which could split a credential: it is not kept.
    throw malformed(`the agent's response is not JSON (${text.length} characters)`);
  }
  if (typeof body !== 'object' || body === null || (body as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    throw malformed("the agent's response is not a JSON-RPC 2.0 response");
  }
  const envelope = body as { id?: unknown; result?: unknown; error?: unknown };
  if (envelope.error !== undefined) {
    throw jsonRpcErrorOf(body) ?? malformed("the agent's response carries a malformed error");
  }
  if (envelope.id !== request.id) {
    throw malformed(`the agent's response answers request ${JSON.stringify(envelope.id)}, not ${request.id}`);
  }
  if (envelope.result === undefined) throw malformed("the agent's response has no result");
  return envelope.result;
}
