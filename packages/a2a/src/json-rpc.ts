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
 * The result a JSON-RPC 2.0 response to request `id` carries, from its text (one Server-Sent Event's
 * data, or a whole body); `subject` names it in errors. A JSON-RPC error becomes a JsonRpcError,
 * anything else that is not a response a StreamProtocolError. The text itself is never quoted.
 */
export function rpcResultOf(text: string, id: JsonRpcId, subject: string): unknown {
  let response: unknown;
  try {
    response = JSON.parse(text);
  } catch {
    // V8's SyntaxError quotes a cut of the text, which could split a credential: it is not kept.
    throw new StreamProtocolError(`${subject} is not JSON (${text.length} characters)`);
  }
  if (typeof response !== 'object' || response === null || Array.isArray(response)) {
    throw new StreamProtocolError(`${subject} is not a JSON-RPC response`);
  }
  const envelope = response as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  if (envelope.jsonrpc !== '2.0') {
    throw new StreamProtocolError(`${subject} is not a JSON-RPC 2.0 response`);
  }
  // An error answering a request the server could not read carries the id null.
  if (envelope.error !== undefined && (envelope.id === id || envelope.id === null)) {
    throw jsonRpcErrorOf(response) ?? new StreamProtocolError(`${subject} carries a malformed error`);
  }
  if (envelope.id !== id) {
    throw new StreamProtocolError(
      `${subject} answers JSON-RPC request ${JSON.stringify(envelope.id)}, not ${JSON.stringify(id)}`,
    );
  }
  return envelope.result;
}

/** The result one Server-Sent Event of a stream answering request `id` carries. */
export function streamResultOf(data: string, id: JsonRpcId): unknown {
  return rpcResultOf(data, id, 'An agent stream event');
}
