/**
 * Polls `read` every `everyMs` until `done` holds or `limitMs` passes; returns the last value and
 * whether the condition was met. Bounded, so a condition that never holds ends the wait instead of
 * hanging it. For what the kernel alone knows (a descriptor count): where an event says it, wait for it.
 */
export async function waitFor<T>(
  read: () => T,
  done: (value: T) => boolean,
  limitMs: number,
  everyMs = 100,
): Promise<{ value: T; met: boolean }> {
  const started = performance.now();
  for (;;) {
    const value = read();
    if (done(value)) return { value, met: true };
    if (performance.now() - started >= limitMs) return { value, met: false };
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Resolves once `condition` holds, polled every `everyMs`; rejects, naming `what`, when it still does
 * not after `limitMs`: a test that waits on it fails instead of hanging its suite.
 */
export async function until(
  condition: () => boolean,
  what: string,
  limitMs = 10_000,
  everyMs = 5,
): Promise<void> {
  const { met } = await waitFor(condition, (holds) => holds, limitMs, everyMs);
  if (!met) throw new Error(`${what}: not so after ${limitMs} ms`);
}
