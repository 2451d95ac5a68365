import { ChatSection } from './agent-chat.js';
import { QnaSection } from './qna-playground.js';

export function PlaygroundPage() {
  return (
    <div class="playground">
      <h1 class="visually-hidden">Playground</h1>
      <QnaSection />
      <ChatSection />
    </div>
  );
}
