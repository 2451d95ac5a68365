/**
 * The end of one exchange: the client went away (aborted, cancelled the body, closed the socket),
 * the answer was complete, or the emulator closed. Listeners run once, whichever comes first.
 */
export class Closing {
  private listeners: (() => void)[] | undefined = [];

  get closed(): boolean {
    return this.listeners === undefined;
  }

  on(listener: () => void): void {
    if (this.listeners) this.listeners.push(listener);
    else listener();
  }

  close(): void {
    const listeners = this.listeners;
    if (!listeners) return;
    this.listeners = undefined;
    for (const listener of listeners) listener();
  }
}
