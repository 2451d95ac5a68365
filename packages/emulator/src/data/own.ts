/**
 * The value a record holds under `key` itself. Plain objects inherit `constructor`, `toString`,
 * `__proto__` and the like, which must never pass for an id a caller sent.
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
