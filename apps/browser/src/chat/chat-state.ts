import type { ChatState, ChatStatus, UIMessage } from 'ai';

/**
 * The state of the AI SDK's framework-neutral chat client (`AbstractChat`), kept in plain fields: each
 * change calls `changed`, which re-renders. What React's `useChat` keeps in hooks.
 */
export class PageChatState<M extends UIMessage> implements ChatState<M> {
  #status: ChatStatus = 'ready';
  #error: Error | undefined;
  #messages: M[] = [];

  constructor(private readonly changed: () => void) {}

  get status(): ChatStatus {
    return this.#status;
  }
  set status(status: ChatStatus) {
    this.#status = status;
    this.changed();
  }
  get error(): Error | undefined {
    return this.#error;
  }
  set error(error: Error | undefined) {
    this.#error = error;
    this.changed();
  }
  get messages(): M[] {
    return this.#messages;
  }
  set messages(messages: M[]) {
    this.#messages = [...messages];
    this.changed();
  }
  pushMessage = (message: M): void => {
    this.#messages = [...this.#messages, message];
    this.changed();
  };
  popMessage = (): void => {
    this.#messages = this.#messages.slice(0, -1);
    this.changed();
  };
  replaceMessage = (index: number, message: M): void => {
    this.#messages = this.#messages.map((existing, i) => (i === index ? message : existing));
    this.changed();
  };
  // The chat client mutates the message it streams into; a copy is what the page renders.
  snapshot = <T>(value: T): T => structuredClone(value);
}
