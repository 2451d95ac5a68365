import { ContextValuesError } from './errors.js';
import { assertContextValues, type ContextValues } from './json.js';
import { isProvidedValuesPart } from './part.js';

/**
 * Server side: the context values an incoming message carries under the extension `uri`, or undefined
 * when it carries none. Several provided-values parts are merged in order (a later name wins).
 * Throws ContextValuesError, naming the path, when the message or the values are malformed.
 */
export function readProvidedValues(message: unknown, uri: string): ContextValues | undefined {
  if (message === null || typeof message !== 'object') {
    throw new ContextValuesError('message must be an object', 'message');
  }
  const { parts = [] } = message as { parts?: unknown };
  if (!Array.isArray(parts)) throw new ContextValuesError('message.parts must be an array', 'message.parts');
  const carriers = parts.filter((part) => isProvidedValuesPart(part, uri));
  if (carriers.length === 0) return undefined;
  const found = carriers.flatMap((part) => {
    const { data } = part as { data?: unknown };
    assertContextValues(data, `message.parts[${parts.indexOf(part)}].data`);
    return Object.entries(data);
  });
  // fromEntries defines own properties, so a `__proto__` name stays a plain key.
  return Object.fromEntries(found);
}
