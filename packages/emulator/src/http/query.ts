import { HttpError } from './errors.js';

/** Query parameters of one request; the first of repeated names wins, as servlet containers do. */
export class Query {
  private readonly params: URLSearchParams;

  constructor(raw: string) {
    this.params = new URLSearchParams(raw);
  }

  optional(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  required(name: string): string {
    const value = this.params.get(name);
    if (value === null) {
      throw new HttpError(
        400,
        `Required request parameter '${name}' is not present`,
        {},
        'MISSING_PARAMETER',
      );
    }
    if (value.trim() === '') {
      throw new HttpError(400, `Required request parameter '${name}' is empty`, {}, 'MISSING_PARAMETER');
    }
    return value;
  }
}

/** Parses `properties`: `key=value` pairs joined by `;` (blank pairs ignored, keys trimmed). */
export function parseProperties(raw: string | undefined): Map<string, string> {
  const properties = new Map<string, string>();
  if (!raw) return properties;
  for (const pair of raw.split(';')) {
    const at = pair.indexOf('=');
    const key = (at < 0 ? pair : pair.slice(0, at)).trim();
    if (key) properties.set(key, at < 0 ? '' : pair.slice(at + 1).trim());
  }
  return properties;
}

/** `include_probe` is true unless set to `false`. */
export function includeProbe(properties: Map<string, string>): boolean {
  return properties.get('include_probe')?.toLowerCase() !== 'false';
}
