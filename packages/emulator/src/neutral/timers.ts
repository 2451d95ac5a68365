/** Lets a timer not hold a Node process open; other runtimes' timers are plain numbers. */
export function unref(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => unref(setTimeout(resolve, ms)));
}
