/**
 * `make`'s promise, made on the first call and shared by every later one (so a name is resolved
 * once); a rejected one is dropped, so the next call tries again.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}
