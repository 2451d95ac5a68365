// A chat with an agent through the AI SDK's framework-neutral chat client: the transport posts the
// conversation to /api/chat (served beside the page), and the streamed reply renders as it arrives.
import type { DataworkzUIMessage } from '@dataworkz/ai-sdk';
import { AbstractChat, DefaultChatTransport } from 'ai';
import { describeError, element, showStatus } from '../dom.js';
import { PageChatState } from './chat-state.js';
import { renderMessage } from './render.js';

const list = element('#messages', HTMLOListElement);
const composer = element('#composer', HTMLFormElement);
const input = element('#composer input[name=text]', HTMLInputElement);
const send = element('#composer button[type=submit]', HTMLButtonElement);
const stop = element('#stop', HTMLButtonElement);
const status = element('#chat-status', HTMLElement);

class PageChat extends AbstractChat<DataworkzUIMessage> {}

let renderQueued = false;
function scheduleRender(): void {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

const state = new PageChatState<DataworkzUIMessage>(scheduleRender);
const chat = new PageChat({
  transport: new DefaultChatTransport<DataworkzUIMessage>({ api: '/api/chat' }),
  state,
});

function statusText(): [text: string, isError: boolean] {
  const last = chat.messages.at(-1);
  if (chat.status === 'submitted') return ['Sending…', false];
  if (chat.status === 'streaming') {
    const steps = last?.parts.filter((part) => part.type === 'data-task-update') ?? [];
    const step = steps.at(-1);
    return [step ? `Working: ${step.data.message ?? step.data.type}` : 'The agent is working…', false];
  }
  if (chat.status === 'error') return [describeError(chat.error), true];
  if (last?.metadata?.state === 'input-required') return ['The agent asked a question.', false];
  return ['', false];
}

function render(): void {
  const { messages } = chat;
  list.replaceChildren(
    ...messages.map((message, index) => renderMessage(message, index === messages.length - 1)),
  );
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  send.disabled = busy;
  stop.disabled = !busy;
  const waiting = chat.messages.at(-1)?.metadata?.state === 'input-required';
  input.placeholder = waiting ? 'Your answer to the agent' : 'Ask the agent';
  const [text, isError] = statusText();
  showStatus(status, text, isError);
}

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (text === '') return;
  input.value = '';
  // Errors show through the chat's status; the promise settles when the reply has streamed.
  chat.sendMessage({ text }).catch(() => undefined);
});

stop.addEventListener('click', () => {
  // Aborts the request: the route's signal closes the agent's stream.
  chat.stop().catch(() => undefined);
});

render();
