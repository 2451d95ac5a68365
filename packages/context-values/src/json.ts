import { ContextValuesError } from './errors.js';

/** Any value that survives `JSON.stringify` and `JSON.parse` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Context variables, by name: what the provided-values extension carries. */
export type ContextValues = { [name: string]: JsonValue };

/** The path of a property below `path`: `path.key`, or `path[2]` for an index. */
export function childPath(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`;
}

// What makes a primitive unfit for JSON, by its `typeof` (non-finite numbers are checked apart).
const NOT_JSON: Partial<Record<string, string>> = {
  undefined: 'undefined',
  bigint: 'a BigInt',
  symbol: 'a symbol',
  function: 'a function',
};

/** Whether `value` is an object one can read properties of (not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

function fail(path: string, reason: string): never {
  throw new ContextValuesError(`${path} is not JSON: ${reason}`, path);
}

function isStackOverflow(error: unknown): boolean {
  // What was thrown may be a Proxy whose traps throw too.
  try {
    return error instanceof RangeError && /call stack/i.test(error.message);
  } catch {
    return false;
  }
}

/**
 * What a getter or trap threw, in words, as the package's other errors word it: the message of an
 * error, a thrown primitive as it is. Never throws: the thrown value may be hostile as well.
 */
function reasonOf(error: unknown): string {
  try {
    const message = isRecord(error) ? error.message : error;
    // A function's text is its source code, not a reason.
    if (message !== undefined && !isRecord(message) && typeof message !== 'function') return String(message);
  } catch {}
  return 'an error without a message';
}

/**
 * Runs one read of the caller's data (a getter, a Proxy trap), turning whatever it throws into a
 * ContextValuesError naming `path`, with the thrown value as its `cause`. While copying (`nested`), a
 * stack overflow passes through: it means the value nests too deeply, which the copy reports.
 */
export function read<T>(path: string, get: () => T, nested?: boolean): T {
  try {
    return get();
  } catch (error) {
    if (nested && isStackOverflow(error)) throw error;
    throw new ContextValuesError(`${path} could not be read: ${reasonOf(error)}`, path, { cause: error });
  }
}

/** The items of an array (a Proxy of one included) with their paths, each read once; holes are skipped. */
export function readItems(array: unknown, path: string): Array<[path: string, item: unknown]> {
  const items = array as readonly unknown[];
  const length = read(path, () => items.length);
  const found: Array<[string, unknown]> = [];
  for (let index = 0; index < length; index++) {
    const at = childPath(path, index);
    if (read(at, () => index in items)) found.push([at, read(at, () => items[index])]);
  }
  return found;
}

/** A plain-JSON copy of `value`, checked as it is copied: every property is read exactly once. */
function copy(value: unknown, at: string, ancestors: Set<object>): JsonValue {
  const kind = typeof value;
  if (value === null || kind === 'string' || kind === 'boolean') return value as JsonValue;
  if (kind === 'number') {
    if (!Number.isFinite(value)) fail(at, String(value));
    return value as number;
  }
  const problem = NOT_JSON[kind];
  if (problem) fail(at, problem);
  const object = value as object;
  if (ancestors.has(object)) fail(at, 'a cycle');
  const isArray = read(at, () => Array.isArray(object), true);
  const proto = read(
    at,
    () => Object.getPrototypeOf(object) as { constructor?: { name?: unknown } } | null,
    true,
  );
  if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) {
    // The name is the caller's too: a getter or a Proxy, or not a string.
    fail(at, `a ${read(at, () => String(proto?.constructor?.name || 'non-plain object'))}`);
  }
  if (read(at, () => Object.getOwnPropertySymbols(object), true).length > 0) fail(at, 'symbol keys');
  ancestors.add(object);
  let result: JsonValue;
  if (isArray) {
    const array = object as unknown[];
    const length = read(at, () => array.length, true);
    const items: JsonValue[] = [];
    for (let index = 0; index < length; index++) {
      const path = childPath(at, index);
      if (!read(path, () => index in array, true)) fail(path, 'an array hole');
      items.push(
        copy(
          read(path, () => array[index], true),
          path,
          ancestors,
        ),
      );
    }
    result = items;
  } else {
    const record = object as Record<string, unknown>;
    const entries: { [key: string]: JsonValue } = {};
    for (const key of read(at, () => Object.keys(record), true)) {
      const path = childPath(at, key);
      // Defined, not assigned, so a key such as __proto__ stays a plain key.
      Object.defineProperty(entries, key, {
        value: copy(
          read(path, () => record[key], true),
          path,
          ancestors,
        ),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    result = entries;
  }
  ancestors.delete(object);
  return result;
}

/**
 * A plain-JSON copy of `value`, checked as it is made: finite numbers, strings, booleans, null,
 * arrays without holes and plain objects, with no cycles; every property is read once, so the copy
 * is exactly what was checked, whatever a getter or Proxy does later. Throws a ContextValuesError
 * naming the first offending path (also when reading a property throws).
 */
export function snapshotJsonValue(value: unknown, path = 'value'): JsonValue {
  try {
    return copy(value, path, new Set());
  } catch (error) {
    // Nesting deeper than the call stack cannot be serialised by JSON.stringify either.
    if (isStackOverflow(error)) fail(path, 'nested too deeply');
    throw error;
  }
}

/** Checks that `value` is plain JSON (see `snapshotJsonValue`); throws a ContextValuesError naming the path. */
export function assertJsonValue(value: unknown, path = 'value'): asserts value is JsonValue {
  snapshotJsonValue(value, path);
}

/**
 * A checked plain-JSON copy of context values: an object of JSON values, as the extension requires,
 * read once (see `snapshotJsonValue`). Send the copy, and what is sent is what was checked.
 */
export function snapshotContextValues(values: unknown, path = 'values'): ContextValues {
  if (!isRecord(values) || read(path, () => Array.isArray(values))) {
    throw new ContextValuesError(`${path} must be an object of JSON values`, path);
  }
  return snapshotJsonValue(values, path) as ContextValues;
}

/** Checks that `values` is a plain object of JSON values, as the extension requires. */
export function assertContextValues(values: unknown, path = 'values'): asserts values is ContextValues {
  snapshotContextValues(values, path);
}
