import { A2AError } from '@a2a-js/sdk/server';

export type RpcId = string | number | null;

/** A JSON-RPC 2.0 request whose envelope is valid; its params are checked per method. */
export interface RpcRequest {
  id: RpcId;
  method: string;
  params: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request's id when it is one JSON-RPC allows, else null (what an error answer then carries). */
function rpcIdOf(body: Record<string, unknown>): RpcId {
  const { id } = body;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

/** A request body read as JSON-RPC: the request, or the error to answer with and the id it carries. */
type ReadRpcBody = { ok: true; request: RpcRequest } | { ok: false; id: RpcId; error: A2AError };

/**
 * Reads a JSON-RPC 2.0 request from body text, in the order the spec checks: JSON (-32700), then the
 * envelope (-32600: one request object, `jsonrpc` "2.0", an id that is a string, an integer or null,
 * a method), then whether params is an object (-32602). Batches are not supported (-32600).
 */
export function readRpcBody(text: string): ReadRpcBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, id: null, error: A2AError.parseError('The request body is not valid JSON') };
  }
  if (!isObject(body)) {
    const what = Array.isArray(body)
      ? 'Batch requests are not supported'
      : 'The request must be a JSON object';
    return { ok: false, id: null, error: A2AError.invalidRequest(what) };
  }
  try {
    return { ok: true, request: readRpcRequest(body) };
  } catch (error) {
    return { ok: false, id: rpcIdOf(body), error: error as A2AError };
  }
}

/** Reads the envelope of a JSON-RPC request object (jsonrpc, id, method, params); throws A2AError -32600 or -32602. */
function readRpcRequest(body: Record<string, unknown>): RpcRequest {
  if (body.jsonrpc !== '2.0') throw A2AError.invalidRequest("jsonrpc must be '2.0'");
  if ('id' in body && body.id !== null && rpcIdOf(body) === null)
    throw A2AError.invalidRequest('id must be a string, an integer or null');
  if (typeof body.method !== 'string' || body.method === '')
    throw A2AError.invalidRequest('method must be a non-empty string');
  const params = body.params ?? {};
  if (!isObject(params) || Object.hasOwn(params, '')) {
    throw A2AError.invalidParams('params must be an object with non-empty keys');
  }
  return { id: rpcIdOf(body), method: body.method, params };
}

export function rpcResult(id: RpcId, result: unknown) {
  return { jsonrpc: '2.0', id, result };
}

export function rpcError(id: RpcId, error: A2AError) {
  return { jsonrpc: '2.0', id, error: error.toJSONRPCError() };
}

/** Reads a string param every task method needs (`id`); throws -32602. */
export function taskIdParam(params: Record<string, unknown>): string {
  if (typeof params.id !== 'string' || params.id === '')
    throw A2AError.invalidParams('params.id must be a non-empty string');
  return params.id;
}
