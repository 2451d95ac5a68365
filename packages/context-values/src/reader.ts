import { ContextValuesError } from './errors.js';
import { type ContextValues, isRecord, type JsonValue, read, snapshotContextValues } from './json.js';
import { isProvidedValuesPart, partsOf } from './part.js';

/**
 * Server side: the context values an incoming message carries under the extension `uri`, or undefined
 * when it carries none. Several provided-values parts are merged in order (a later name wins). Each
 * value is read once, so what is returned is what was checked. Throws ContextValuesError, naming the
 * path, when the message or the values are malformed or cannot be read (a getter or Proxy trap throws).
 */
export function readProvidedValues(message: unknown, uri: string): ContextValues | undefined {
  if (!isRecord(message)) throw new ContextValuesError('message must be an object', 'message');
  let carried = false;
  const found: Array<[string, JsonValue]> = [];
  for (const [path, part] of partsOf(message, true)) {
    if (!isProvidedValuesPart(part, uri, path)) continue;
    carried = true;
    const data = read(`${path}.data`, () => (part as { data?: unknown }).data);
    // Not push(...entries): spreading a very large object's entries would overflow the stack.
    for (const entry of Object.entries(snapshotContextValues(data, `${path}.data`))) found.push(entry);
  }
  // fromEntries defines own properties, so a `__proto__` name stays a plain key.
  return carried ? Object.fromEntries(found) : undefined;
}
