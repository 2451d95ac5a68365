import { APIConnectionTimeoutError, APIError, APIUserAbortError, DataworkzError } from '@dataworkz/client';
import { JsonRpcError, NoLlmError, StreamProtocolError } from './errors.js';
import { jsonRpcErrorOf } from './json-rpc.js';

// How deployments word "no LLM could be determined"; the contract gives no code for it.
const NO_LLM =
  /\bno\s+llm\b|\bllm\b[^.]*\b(?:could\s*not|cannot|can't|couldn't|unable\s+to)\s+be\s+(?:determined|found|resolved)|unable\s+to\s+(?:determine|resolve|find)\s+(?:an?\s+|the\s+)?llm|no\s+default\s+llm/i;

function mentionsNoLlm(error: DataworkzError): boolean {
  if (NO_LLM.test(error.message)) return true;
  if (error instanceof APIError) {
    const body = error.body;
    if ((body as { code?: unknown } | null)?.code === 'LLM_NOT_DETERMINED') return true;
    const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
    return NO_LLM.test(text);
  }
  if (error instanceof JsonRpcError) return NO_LLM.test(JSON.stringify(error.data ?? ''));
  return false;
}

function classify(error: DataworkzError): DataworkzError {
  const refusal =
    (error instanceof APIError && error.status >= 400 && error.status < 500) || error instanceof JsonRpcError;
  return refusal && mentionsNoLlm(error) ? new NoLlmError(error) : error;
}

/** The typed error for anything the SDK's transport or this package's stream throws. */
export function toRunError(
  error: unknown,
  signal: AbortSignal,
  subject = 'The agent stream',
): DataworkzError {
  if (signal.aborted) {
    // The run's own time-out aborts its signal too; that is a time-out, not the caller's abort.
    if (signal.reason instanceof APIConnectionTimeoutError) return signal.reason;
    return error instanceof APIUserAbortError ? error : new APIUserAbortError(undefined, { cause: error });
  }
  if (error instanceof DataworkzError) return classify(error);
  // V8's message quotes a cut of the text it failed on, which could split a credential: not kept.
  if (error instanceof SyntaxError) return new StreamProtocolError(`${subject} is not valid JSON`);
  if (error instanceof Error) {
    // The SDK's errors hold the JSON-RPC response, on themselves or on their cause.
    const rpcError = jsonRpcErrorOf(
      (error as { errorResponse?: unknown }).errorResponse ??
        (error.cause as { errorResponse?: unknown } | undefined)?.errorResponse,
    );
    if (rpcError) return classify(rpcError);
    if (error.name === 'AbortError') return new APIUserAbortError(undefined, { cause: error });
    return new StreamProtocolError(`${subject} could not be read: ${error.message}`, { cause: error });
  }
  return new DataworkzError(`${subject} failed`, { cause: error });
}
