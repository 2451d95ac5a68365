// A chat route for the AI SDK's `useChat`: a plain (Request) => Response, the shape Next.js route
// handlers, Hono and edge runtimes share. The last user message goes to the agent; the previous
// assistant message's metadata says which conversation (and which waiting task) it continues.
import { streamAgent } from '@dataworkz/a2a';
import { type DataworkzUIMessage, toUIMessageStream } from '@dataworkz/ai-sdk';
import type { Dataworkz } from '@dataworkz/client';
import { createUIMessageStreamResponse } from 'ai';

function textOf(message: DataworkzUIMessage | undefined): string {
  return (message?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

export function createChatRoute(dw: Dataworkz, agentId: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = (await request.json().catch(() => undefined)) as
      | { messages?: DataworkzUIMessage[] }
      | undefined;
    const messages = Array.isArray(body?.messages) ? body.messages : [];
    const text = textOf(messages.findLast((message) => message.role === 'user'));
    if (text === '')
      return Response.json({ error: 'Send { messages } with a user message.' }, { status: 400 });
    const previous = messages.findLast((message) => message.role === 'assistant')?.metadata;
    const run = streamAgent(dw, agentId, {
      text,
      contextId: previous?.contextId,
      // A task waiting for input continues; a finished one is not reopened.
      taskId: previous?.state === 'input-required' ? previous.taskId : undefined,
      signal: request.signal,
    });
    return createUIMessageStreamResponse({ stream: toUIMessageStream(run) });
  };
}
