/**
 * `resolve`'s promise, made on the first call and shared by every later one, so a name (or a list of
 * names) is resolved once however many tool calls need it; a rejected one is dropped, so the next call
 * tries again rather than failing for good on a passing network fault.
 */
export function resolveOnce<T>(resolve: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= resolve().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}
