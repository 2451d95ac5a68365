import { ContextValuesError } from './errors.js';

/** Any value that survives `JSON.stringify` and `JSON.parse` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Context variables, by name: what the provided-values extension carries. */
export type ContextValues = { [name: string]: JsonValue };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function describe(value: object): string {
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor
    ?.name;
  return name ? `a ${name}` : 'a non-plain object';
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Why a primitive is not JSON, or undefined when it is. */
function primitiveProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${String(value)} has no JSON form`;
    case 'undefined':
      return 'undefined has no JSON form (use null, or leave the key out)';
    case 'bigint':
      return 'a BigInt has no JSON form (pass it as a string or a number)';
    case 'symbol':
      return 'a symbol has no JSON form';
    case 'function':
      return 'a function has no JSON form';
    default:
      return undefined;
  }
}

type Frame = { value: unknown; path: string; exit?: false } | { value: object; path: string; exit: true };

/**
 * Checks that `value` is plain JSON: finite numbers, strings, booleans, null, arrays without holes and
 * plain objects, with no cycles. Throws a ContextValuesError naming the first offending path.
 * Walks with an explicit stack so that deep nesting cannot overflow the call stack.
 */
export function assertJsonValue(value: unknown, path = 'value'): asserts value is JsonValue {
  const ancestors = new Set<object>();
  const stack: Frame[] = [{ value, path }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.exit) {
      ancestors.delete(frame.value);
      continue;
    }
    const current = frame.value;
    if (current === null || typeof current !== 'object') {
      const problem = primitiveProblem(current);
      if (problem) throw new ContextValuesError(`${frame.path} is not JSON: ${problem}`, frame.path);
      continue;
    }
    if (ancestors.has(current)) {
      throw new ContextValuesError(
        `${frame.path} is not JSON: it refers back to itself (a cycle)`,
        frame.path,
      );
    }
    if (Array.isArray(current)) {
      if (Object.getPrototypeOf(current) !== Array.prototype) {
        throw new ContextValuesError(`${frame.path} is not JSON: ${describe(current)}`, frame.path);
      }
      const hole = current.findIndex((_item, index) => !(index in current));
      if (hole >= 0) {
        const at = childPath(frame.path, hole);
        throw new ContextValuesError(`${at} is not JSON: an array hole has no JSON form`, at);
      }
      ancestors.add(current);
      stack.push({ value: current, path: frame.path, exit: true });
      for (let index = current.length - 1; index >= 0; index--) {
        stack.push({ value: current[index], path: childPath(frame.path, index) });
      }
      continue;
    }
    if (!isPlainObject(current)) {
      throw new ContextValuesError(
        `${frame.path} is not JSON: ${describe(current)} is not a plain object (convert it first, e.g. a Date with toISOString())`,
        frame.path,
      );
    }
    if (
      Object.getOwnPropertySymbols(current).some((key) =>
        Object.prototype.propertyIsEnumerable.call(current, key),
      )
    ) {
      throw new ContextValuesError(`${frame.path} is not JSON: it has symbol keys`, frame.path);
    }
    ancestors.add(current);
    stack.push({ value: current, path: frame.path, exit: true });
    const entries = Object.entries(current);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index] as [string, unknown];
      stack.push({ value: child, path: childPath(frame.path, key) });
    }
  }
}

/** Checks that `values` is a plain object of JSON values, as the extension requires. */
export function assertContextValues(values: unknown, path = 'values'): asserts values is ContextValues {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    throw new ContextValuesError(`${path} must be an object mapping variable names to JSON values`, path);
  }
  assertJsonValue(values, path);
}
