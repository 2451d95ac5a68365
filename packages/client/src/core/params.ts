import { DataworkzError, InvalidParameterError } from './errors.js';

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
// The service's identifiers are UUID-shaped; a name (`Product Documentation`, `gpt-4o`) is not.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is shaped as the service's ids are (a UUID). */
export const isUuidShaped = (value: string): boolean => UUID.test(value);

export function requireId(name: string, value: unknown): string {
  const id = requireString(name, value);
  if (id === '' || id === '.' || id === '..') {
    throw new InvalidParameterError(name, `${name} must be a non-empty id other than "." or "..".`);
  }
  return id;
}

/** `T` with its possibly-undefined properties made optional and defined when present. */
export type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** A copy of `value` without its undefined properties: what an optional parameter left out looks like. */
export function withoutUndefined<T extends object>(value: T): Defined<T> {
  const out: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out as Defined<T>;
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

// Tab, visible ASCII, space and Latin-1: what fetch accepts in a header value (CR and LF excluded).
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Headers as a record, every value checked; the message never repeats a value (it may be a secret). */
// RequestInit's own member type: `HeadersInit` is a DOM-only name that @types/node does not declare.
export function checkHeaderRecord(headers: NonNullable<RequestInit['headers']>): Record<string, string> {
  const record: Record<string, string> = {};
  const entries =
    headers instanceof Headers
      ? [...headers.entries()]
      : Array.isArray(headers)
        ? headers
        : Object.entries(headers as Record<string, string>);
  for (const [name, value] of entries) {
    if (typeof name !== 'string' || !HEADER_NAME.test(name)) {
      throw new DataworkzError("A header name must be an HTTP token (letters, digits and !#$%&'*+-.^_`|~).");
    }
    if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
      // The value is not repeated: it may be a secret.
      throw new DataworkzError(
        `Header ${String(name)} has a value that is not allowed in HTTP (such as CR or LF).`,
      );
    }
    record[name] = value;
  }
  return record;
}
