// The chat route of src/ai-sdk/chat-route.ts as `useChat` calls it: the AI SDK's own chat transport
// posts the messages, and its reader assembles the streamed reply, with the agent's steps as data parts.
// The agent asks back for the order number; the reply continues the same task.
import type { DataworkzUIMessage } from '@dataworkz/ai-sdk';
import Dataworkz from '@dataworkz/client';
import { DefaultChatTransport, readUIMessageStream } from 'ai';
import { createChatRoute } from '../ai-sdk/chat-route.js';
import { excerpt, field, heading } from '../support/output.js';
import { chooseAgentId } from '../support/target.js';

const dw = new Dataworkz();
const route = createChatRoute(dw, await chooseAgentId(dw));
// The transport fetches the route directly here; in an application it posts to /api/chat.
const transport = new DefaultChatTransport<DataworkzUIMessage>({
  api: 'http://localhost/api/chat',
  fetch: (input, init) => route(new Request(input, init)),
});

const messages: DataworkzUIMessage[] = [];
async function send(text: string): Promise<DataworkzUIMessage> {
  messages.push({ id: `user-${messages.length}`, role: 'user', parts: [{ type: 'text', text }] });
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'example',
    messageId: undefined,
    messages,
    abortSignal: undefined,
  });
  let reply: DataworkzUIMessage | undefined;
  for await (const message of readUIMessageStream<DataworkzUIMessage>({ stream, terminateOnError: true }))
    reply = message;
  if (!reply) throw new Error('The route streamed no message.');
  messages.push(reply);
  return reply;
}

function show(reply: DataworkzUIMessage): void {
  for (const part of reply.parts) {
    if (part.type === 'data-task-update') field('step', part.data.message ?? part.data.type);
    else if (part.type === 'text') field('text', excerpt(part.text, 300));
    else if (part.type === 'data-input-required') field('asks back', `on task ${part.data.taskId}`);
  }
  field('state', reply.metadata?.state);
}

heading('User: "Where is my order?"');
const asked = await send('Where is my order?');
show(asked);

heading('User: "It is order 1001."');
const answered = await send('It is order 1001.');
show(answered);
if (asked.metadata?.state === 'input-required' && answered.metadata?.taskId !== asked.metadata.taskId)
  throw new Error('The reply opened a new task.');
