import { UsageError } from './exit-codes.js';

/** `key=value`: the value as JSON when it parses (numbers, booleans, objects), else as text. */
function parseKeyValue(text: string, flag: string): [string, unknown] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} takes key=value; got "${text}".`);
  const key = text.slice(0, at).trim();
  const raw = text.slice(at + 1);
  try {
    return [key, JSON.parse(raw)];
  } catch {
    return [key, raw];
  }
}

/** Repeated `key=value` flags as one object; later keys win. */
export function keyValues(
  items: readonly string[] | undefined,
  flag: string,
): Record<string, unknown> | undefined {
  if (!items || items.length === 0) return undefined;
  return Object.fromEntries(items.map((item) => parseKeyValue(item, flag)));
}

/** `field=v1,v2`: a field and the values it may take, for `--where`. */
export function parseWhere(text: string): [string, string[]] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`--where takes field=value[,value...]; got "${text}".`);
  const values = text
    .slice(at + 1)
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  if (values.length === 0) throw new UsageError(`--where ${text.slice(0, at)}= needs at least one value.`);
  return [text.slice(0, at).trim(), values];
}

/** Repeatable flags arrive from the parser as an array; this collects them. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
