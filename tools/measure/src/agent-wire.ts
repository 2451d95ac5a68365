import { rawRequest } from './raw-http.js';

/** Where an emulator listens and the key it accepts. */
export interface Target {
  url: string;
  apiKey: string;
}

/** One answer of the A2A endpoint, with its JSON-RPC messages: the JSON body, or each event of the stream. */
export interface RpcAnswer {
  status: number;
  contentType: string;
  text: string;
  messages: Record<string, unknown>[];
}

/** A `message/stream` request with one text part, as JSON text, its ids fresh on every call as a client makes them. */
export function streamRequest(text: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: crypto.randomUUID(),
    method: 'message/stream',
    params: {
      message: {
        kind: 'message',
        role: 'user',
        messageId: crypto.randomUUID(),
        parts: [{ kind: 'text', text }],
        ...extra,
      },
    },
  });
}

/** POSTs a JSON-RPC body (text, sent as is) to an agent's stream endpoint and reads the whole answer. */
export async function postRpc(
  target: Target,
  agentId: string,
  body: string,
  timeoutMs: number,
  query = '',
): Promise<RpcAnswer> {
  const answer = await rawRequest(target.url, `/api/agents/v1/a2a/${agentId}/stream${query}`, {
    method: 'POST',
    headers: { authorization: `SSWS ${target.apiKey}`, 'content-type': 'application/json' },
    body,
    timeoutMs,
  });
  return { ...answer, messages: messagesOf(answer.contentType, answer.text) };
}

function messagesOf(contentType: string, text: string): Record<string, unknown>[] {
  const frames = contentType.startsWith('text/event-stream')
    ? text.split('\n\n').flatMap((frame) => (frame.startsWith('data: ') ? [frame.slice(6)] : []))
    : [text];
  return frames.flatMap((frame) => {
    try {
      return [JSON.parse(frame) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/** The final task state a stream ended with, or its JSON-RPC error code, or what else it was. */
export function outcomeOf(answer: RpcAnswer): string {
  if (answer.status !== 200) {
    const code = (answer.messages[0] as { code?: unknown } | undefined)?.code;
    return `HTTP ${answer.status}${typeof code === 'string' ? ` ${code}` : ''}`;
  }
  const last = answer.messages.at(-1);
  const error = last?.error as { code?: number } | undefined;
  if (error) return `JSON-RPC ${error.code}`;
  const state = (last?.result as { status?: { state?: string } } | undefined)?.status?.state;
  return state ?? `HTTP ${answer.status}`;
}
