import { ContextValuesError } from './errors.js';

/** Any value that survives `JSON.stringify` and `JSON.parse` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Context variables, by name: what the provided-values extension carries. */
export type ContextValues = { [name: string]: JsonValue };

function childPath(path: string, key: string | number): string {
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

function check(value: unknown, at: string, ancestors: Set<unknown>): void {
  const kind = typeof value;
  const problem = kind === 'number' && !Number.isFinite(value) ? String(value) : NOT_JSON[kind];
  if (problem) fail(at, problem);
  if (!isRecord(value)) return;
  if (ancestors.has(value)) fail(at, 'a cycle');
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  const isArray = Array.isArray(value);
  if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) {
    fail(at, `a ${proto?.constructor?.name || 'non-plain object'}`);
  }
  if (Object.getOwnPropertySymbols(value).length > 0) fail(at, 'symbol keys');
  ancestors.add(value);
  if (isArray) {
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) fail(childPath(at, index), 'an array hole');
      check(value[index], childPath(at, index), ancestors);
    }
  } else {
    for (const key in value) check(value[key], childPath(at, key), ancestors);
  }
  ancestors.delete(value);
}

/**
 * Checks that `value` is plain JSON: finite numbers, strings, booleans, null, arrays without holes and
 * plain objects, with no cycles. Throws a ContextValuesError naming the first offending path.
 */
export function assertJsonValue(value: unknown, path = 'value'): asserts value is JsonValue {
  try {
    check(value, path, new Set());
  } catch (error) {
    // Nesting deeper than the call stack cannot be serialised by JSON.stringify either.
    if (error instanceof RangeError) fail(path, 'nested too deeply');
    throw error;
  }
}

/** Checks that `values` is a plain object of JSON values, as the extension requires. */
export function assertContextValues(values: unknown, path = 'values'): asserts values is ContextValues {
  if (!isRecord(values) || Array.isArray(values)) {
    throw new ContextValuesError(`${path} must be an object of JSON values`, path);
  }
  assertJsonValue(values, path);
}
