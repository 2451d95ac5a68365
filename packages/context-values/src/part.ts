import { ContextValuesError } from './errors.js';
import { type ContextValues, isRecord, snapshotContextValues } from './json.js';

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

/** Whether `part` is a provided-values part for `uri`. */
export function isProvidedValuesPart(part: unknown, uri: string): boolean {
  return isRecord(part) && part.kind === 'data' && isRecord(part.metadata) && part.metadata[uri] === true;
}

/**
 * The data part carrying `values` under the extension `uri`: a checked copy of them, read once (see
 * `snapshotContextValues`). Throws ContextValuesError for non-JSON values.
 */
export function providedValuesPart(values: ContextValues, uri: string): ProvidedValuesPart {
  if (typeof uri !== 'string' || !uri.trim()) {
    throw new ContextValuesError(`Bad extension URI: ${String(uri)}`);
  }
  return { kind: 'data', data: snapshotContextValues(values), metadata: { [uri]: true } };
}

/**
 * A copy of `message` carrying `values` as its provided-values part; a part already there for the same
 * URI is replaced, so calling it twice does not send two sets of values.
 */
export function withProvidedValues<M extends MessageWithParts>(
  message: M,
  values: ContextValues,
  uri: string,
): M {
  const part = providedValuesPart(values, uri);
  const others = message.parts.filter((existing) => !isProvidedValuesPart(existing, uri));
  return { ...message, parts: [...others, part] };
}
