import type { Emulator } from '@dataworkz/emulator';
import { type Answer, call } from './http.js';

let nextId = 0;

/** A user message as the wire carries it. */
export function message(text: string, extra: Record<string, unknown> = {}) {
  return {
    kind: 'message',
    role: 'user',
    messageId: `m-${++nextId}`,
    parts: [{ kind: 'text', text }],
    ...extra,
  };
}

/** POSTs one JSON-RPC request to an agent's stream endpoint, body as given (an object is sent as JSON). */
export function rpc(emu: Emulator, agentId: string, body: unknown): Promise<Answer> {
  return call(emu, `/api/agents/v1/a2a/${agentId}/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The JSON-RPC messages of an answer: its JSON body, or each event of its stream. */
export function rpcMessages(answer: Answer): Record<string, unknown>[] {
  if (answer.json !== undefined) return [answer.json as Record<string, unknown>];
  return answer.text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>);
}

/** The error of the only message, or of the last event of a stream. */
export function rpcErrorOf(answer: Answer): { code: number; message: string } | undefined {
  return rpcMessages(answer).at(-1)?.error as { code: number; message: string } | undefined;
}
