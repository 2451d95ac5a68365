import { ContextValuesError } from './errors.js';
import { assertContextValues, type ContextValues } from './json.js';

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

function assertUri(uri: string): void {
  if (typeof uri !== 'string' || uri.trim() === '') {
    throw new ContextValuesError('The provided-values extension URI must be a non-empty string');
  }
}

/** Whether `part` is a provided-values part for `uri`. */
export function isProvidedValuesPart(part: unknown, uri: string): boolean {
  if (part === null || typeof part !== 'object') return false;
  const { kind, metadata } = part as { kind?: unknown; metadata?: unknown };
  return (
    kind === 'data' &&
    metadata !== null &&
    typeof metadata === 'object' &&
    (metadata as Record<string, unknown>)[uri] === true
  );
}

/** The data part carrying `values` under the extension `uri`. Throws ContextValuesError for non-JSON values. */
export function providedValuesPart(values: ContextValues, uri: string): ProvidedValuesPart {
  assertUri(uri);
  assertContextValues(values);
  return { kind: 'data', data: values, metadata: { [uri]: true } };
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
