import { ContextValuesError } from './errors.js';
import { type ContextValues, childPath, isRecord, read, readItems, snapshotContextValues } from './json.js';

/** The message part that carries context values: a data part flagged with the extension URI. */
export interface ProvidedValuesPart {
  kind: 'data';
  data: ContextValues;
  metadata: { [uri: string]: unknown };
}

/** The least of an A2A message this package needs: its parts. */
export interface MessageWithParts {
  parts: readonly unknown[];
}

/**
 * Whether `part` is a provided-values part for `uri`. Throws ContextValuesError naming the property
 * (below `path`) when reading the part throws: a getter or a Proxy trap.
 */
export function isProvidedValuesPart(part: unknown, uri: string, path = 'part'): boolean {
  if (typeof uri !== 'string') throw new ContextValuesError('Bad extension URI: not a string');
  if (!isRecord(part) || read(childPath(path, 'kind'), () => part.kind) !== 'data') return false;
  const at = childPath(path, 'metadata');
  const metadata = read(at, () => part.metadata);
  return isRecord(metadata) && read(childPath(at, uri), () => metadata[uri]) === true;
}

/**
 * The parts of `message` with their paths, each read once (holes skipped, as `filter` skips them);
 * none when `parts` is absent and `optional`. Throws ContextValuesError naming the path.
 */
export function partsOf(
  message: Record<string, unknown>,
  optional: boolean,
): Array<[path: string, part: unknown]> {
  const parts = read('message.parts', () => message.parts);
  if (parts === undefined && optional) return [];
  if (!read('message.parts', () => Array.isArray(parts))) {
    throw new ContextValuesError('message.parts must be an array', 'message.parts');
  }
  return readItems(parts, 'message.parts');
}

/**
 * The data part carrying `values` under the extension `uri`: a checked copy of them, read once (see
 * `snapshotContextValues`). Throws ContextValuesError for non-JSON values.
 */
export function providedValuesPart(values: ContextValues, uri: string): ProvidedValuesPart {
  if (typeof uri !== 'string' || !uri.trim()) {
    // A non-string is not put into words: its toString is the caller's code and may throw.
    throw new ContextValuesError(`Bad extension URI: ${typeof uri === 'string' ? uri : 'not a string'}`);
  }
  return { kind: 'data', data: snapshotContextValues(values), metadata: { [uri]: true } };
}

/**
 * A copy of `message` carrying `values` as its provided-values part; a part already there for the same
 * URI is replaced, so calling it twice does not send two sets of values. Throws ContextValuesError,
 * naming the path, for non-JSON values and for a message that is malformed or cannot be read.
 */
export function withProvidedValues<M extends MessageWithParts>(
  message: M,
  values: ContextValues,
  uri: string,
): M {
  const part = providedValuesPart(values, uri);
  if (!isRecord(message)) throw new ContextValuesError('message must be an object', 'message');
  const others = partsOf(message, false)
    .filter(([path, existing]) => !isProvidedValuesPart(existing, uri, path))
    .map(([, existing]) => existing);
  // `{ ...message }` written out, so a property whose read throws is named; `parts` is not read twice.
  const entries: Array<[PropertyKey, unknown]> = [];
  for (const key of read('message', () => Reflect.ownKeys(message))) {
    const path = `message.${String(key)}`;
    if (read(path, () => Reflect.getOwnPropertyDescriptor(message, key))?.enumerable) {
      entries.push([key, key === 'parts' ? undefined : read(path, () => Reflect.get(message, key))]);
    }
  }
  // fromEntries defines own properties, so a key such as __proto__ stays a plain key.
  const copy: Record<PropertyKey, unknown> = Object.fromEntries(entries);
  copy.parts = [...others, part];
  return copy as M;
}
