import { InvalidParameterError } from './core/errors.js';

/** Extra execution properties: an object of flags, or the raw `key=value;key=value` text. */
export type Properties = string | Readonly<Record<string, string | number | boolean>>;

/**
 * The `properties` query value: `{ include_probe: false, context: 3 }` becomes
 * `include_probe=false;context=3`. A key or value containing `;` or `=` is refused (it would
 * change the list), as is an empty key.
 */
export function serializeProperties(properties: Properties | undefined): string | undefined {
  if (properties === undefined) return undefined;
  if (typeof properties === 'string') return properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
    throw new InvalidParameterError('properties', 'properties must be an object of flags or a string.');
  }
  const pairs: string[] = [];
  for (const key of Object.keys(properties)) {
    const value = properties[key];
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new InvalidParameterError('properties', `properties.${key} must be a string, number or boolean.`);
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new InvalidParameterError('properties', `properties.${key} must be a finite number.`);
    }
    const text = String(value);
    if (key.length === 0 || /[;=]/.test(key)) {
      throw new InvalidParameterError(
        'properties',
        'A properties key must be non-empty and contain no ";" or "=".',
      );
    }
    if (/[;=]/.test(text)) {
      throw new InvalidParameterError('properties', `properties.${key} must not contain ";" or "=".`);
    }
    pairs.push(`${key}=${text}`);
  }
  return pairs.join(';');
}

/** Reads `key=value;key=value` back into an object of strings (the inverse of `serializeProperties`). */
export function parseProperties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (text.length === 0) return out;
  for (const pair of text.split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new InvalidParameterError('properties', 'Each property must be a key=value pair.');
    // Defined, not assigned, so a key such as __proto__ stays a plain key.
    Object.defineProperty(out, pair.slice(0, at), {
      value: pair.slice(at + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
