import { InvalidParameterError } from './errors.js';

// Lone UTF-16 surrogates cannot be percent-encoded (encodeURIComponent throws on them).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A required string parameter: present, a string, encodable. */
export function requireString(name: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new InvalidParameterError(name, `${name} is required and must be a string.`);
  }
  if (LONE_SURROGATE.test(value)) {
    throw new InvalidParameterError(
      name,
      `${name} contains an unpaired UTF-16 surrogate and cannot be encoded.`,
    );
  }
  return value;
}

/** An optional string parameter: absent, or as `requireString`. */
export function optionalString(name: string, value: unknown): string | undefined {
  return value === undefined ? undefined : requireString(name, value);
}

/**
 * An id that fills one path segment. `.` and `..` are refused: URL parsers resolve them (even
 * percent-encoded) and the request would reach another path.
 */
export function requireId(name: string, value: unknown): string {
  const id = requireString(name, value);
  if (id === '' || id === '.' || id === '..') {
    throw new InvalidParameterError(name, `${name} must be a non-empty id other than "." or "..".`);
  }
  return id;
}

/** Fills `{name}` placeholders with percent-encoded segments, so a value can never change the path. */
export function serializePath(pathname: string, params: Record<string, unknown>): string {
  return pathname.replace(/\{([^{}]+)\}/g, (_match, name: string) =>
    encodeURIComponent(requireId(name, params[name])),
  );
}

/**
 * The query string: `name=value` pairs, values percent-encoded, undefined ones left out. One function
 * for every call (openapi-fetch would otherwise build its serializer per request).
 */
export function serializeQuery(query: Record<string, unknown>): string {
  let out = '';
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    out += `${out === '' ? '' : '&'}${name}=${encodeURIComponent(String(value))}`;
  }
  return out;
}
