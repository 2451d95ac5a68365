/** Lets a timer not hold a Node process open; other runtimes' timers are plain numbers. */
export function unref(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}

/** A pause inside an exchange: it holds the process open, as the stream in flight it paces would. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
