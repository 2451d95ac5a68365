import { APIConnectionTimeoutError, APIError, APIUserAbortError, DataworkzError } from '@dataworkz/client';
import { JsonRpcError, jsonRpcError, NoLlmError, StreamProtocolError } from './errors.js';
import { jsonRpcErrorOf } from './sdk/fetch.js';

// How deployments word "no LLM could be determined"; the contract gives no code for it.
const NO_LLM =
  /\bno\s+llm\b|\bllm\b[^.]*\b(?:could\s*not|cannot|can't|couldn't|unable\s+to)\s+be\s+(?:determined|found|resolved)|unable\s+to\s+(?:determine|resolve|find)\s+(?:an?\s+|the\s+)?llm|no\s+default\s+llm/i;

/** A refusal that says no LLM could be determined is a NoLlmError. */
function classify(error: DataworkzError): DataworkzError {
  let text: string;
  if (error instanceof APIError && error.status >= 400 && error.status < 500) {
    const { body } = error;
    if ((body as { code?: unknown } | null)?.code === 'LLM_NOT_DETERMINED') return new NoLlmError(error);
    text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  } else if (error instanceof JsonRpcError) text = JSON.stringify(error.data ?? '');
  else return error;
  return NO_LLM.test(error.message) || NO_LLM.test(text) ? new NoLlmError(error) : error;
}

/** The JSON-RPC error of an SDK error or its cause: 0.3.14's `errorResponse`, or 1.x's `envelopeCode`. */
function sdkRpcError(error: Error): JsonRpcError | undefined {
  for (const candidate of [error, error.cause]) {
    if (!(candidate instanceof Error)) continue;
    const fromResponse = jsonRpcErrorOf((candidate as { errorResponse?: unknown }).errorResponse);
    if (fromResponse) return fromResponse;
    const { envelopeCode, data } = candidate as { envelopeCode?: unknown; data?: unknown };
    if (typeof envelopeCode === 'number') return jsonRpcError(envelopeCode, candidate.message, data);
  }
  return undefined;
}

// What the SDK's transports throw, by their messages (plain `Error`s, told apart by text only). The
// messages quote the server's data, cut at 100 characters, so they are replaced, never passed on.
const SDK_FAILURES: ReadonlyArray<[RegExp, (subject: string) => string]> = [
  [/^Failed to parse SSE event data/, (subject) => `${subject}: an event is not JSON`],
  [/response ID mismatch/, (subject) => `${subject}: an answer is for another JSON-RPC request`],
  [/missing 'result' field/, (subject) => `${subject}: an event carries no result`],
  [/^Invalid JSON-RPC response/, (subject) => `${subject}: an answer is not a JSON-RPC 2.0 response`],
  [/^Invalid response: missing payload/, (subject) => `${subject}: an answer carries no result`],
];

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
    const rpcError = sdkRpcError(error);
    if (rpcError) return classify(rpcError);
    if (error.name === 'AbortError') return new APIUserAbortError(undefined, { cause: error });
    for (const [pattern, message] of SDK_FAILURES) {
      if (pattern.test(error.message)) return new StreamProtocolError(message(subject));
    }
    return new StreamProtocolError(`${subject} could not be read: ${error.message}`, { cause: error });
  }
  return new DataworkzError(`${subject} failed`, { cause: error });
}
