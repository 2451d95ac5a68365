import { JsonRpcError, StreamProtocolError } from './errors.js';

export type JsonRpcId = string | number;

/** A JSON-RPC 2.0 request. Each HTTP request carries one, so one id suffices (as the SDK's transport does). */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params: unknown;
}

export function jsonRpcRequest(method: string, params: unknown): JsonRpcRequest {
  return { jsonrpc: '2.0', id: 1, method, params };
}

/** The JSON-RPC error a body carries, if it is a JSON-RPC error response. */
export function jsonRpcErrorOf(body: unknown): JsonRpcError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof code !== 'number') return undefined;
  return new JsonRpcError(code, typeof message === 'string' ? message : '(no message)', data);
}

/**
 * The result one Server-Sent Event carries: a JSON-RPC 2.0 response to request `id`. A JSON-RPC
 * error becomes a JsonRpcError, anything else that is not a response a StreamProtocolError.
 */
export function streamResultOf(data: string, id: JsonRpcId): unknown {
  let response: unknown;
  try {
    response = JSON.parse(data);
  } catch {
    // V8's SyntaxError quotes a cut of the text, which could split a credential: it is not kept.
    throw new StreamProtocolError(`An agent stream event is not JSON (${data.length} characters)`);
  }
  if (typeof response !== 'object' || response === null || Array.isArray(response)) {
    throw new StreamProtocolError('An agent stream event is not a JSON-RPC response');
  }
  const envelope = response as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  if (envelope.jsonrpc !== '2.0') {
    throw new StreamProtocolError('An agent stream event is not a JSON-RPC 2.0 response');
  }
  if (envelope.id !== id) {
    throw new StreamProtocolError(
      `An agent stream event answers JSON-RPC request ${JSON.stringify(envelope.id)}, not ${JSON.stringify(id)}`,
    );
  }
  if (envelope.error !== undefined) {
    throw (
      jsonRpcErrorOf(response) ?? new StreamProtocolError('An agent stream event carries a malformed error')
    );
  }
  return envelope.result;
}
