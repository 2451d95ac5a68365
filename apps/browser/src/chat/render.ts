import type { DataworkzUIMessage } from '@dataworkz/ai-sdk';

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  node.append(...children);
  return node;
}

/** One message of the conversation: the user's text, or the agent's steps, answer, sources and question. */
export function renderMessage(message: DataworkzUIMessage, isLast: boolean): HTMLLIElement {
  const item = el('li', `message ${message.role}`);
  item.append(el('span', 'who', message.role === 'user' ? 'You' : 'Agent'));
  const steps = el('ol', 'steps');
  steps.setAttribute('aria-label', 'Steps');
  const sources = el('ul', 'sources');
  sources.setAttribute('aria-label', 'Sources');
  let text = '';
  let asks = false;
  for (const part of message.parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'data-task-update')
      steps.append(el('li', '', part.data.message ?? part.data.type));
    else if (part.type === 'source-url') {
      const link = el('a', '', part.title ?? part.url);
      link.href = part.url;
      link.target = '_blank';
      link.rel = 'noreferrer';
      sources.append(el('li', '', link));
    } else if (part.type === 'data-input-required') asks = true;
  }
  if (steps.childElementCount > 0) item.append(steps);
  if (text !== '') item.append(el('p', 'text', text));
  if (sources.childElementCount > 0) item.append(sources);
  // Only the last message waits for a reply; an earlier question has been answered.
  if (asks && isLast) item.append(el('p', 'asks', 'The agent needs your answer to go on: reply below.'));
  return item;
}
