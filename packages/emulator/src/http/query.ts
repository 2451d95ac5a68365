import { HttpError } from './errors.js';

/**
 * Query parameters of one request; the first of repeated names wins, as servlet containers do.
 * A value longer than the user-text limit is refused (400) whatever its name.
 */
export class Query {
  private readonly params: URLSearchParams;

  constructor(
    raw: string,
    private readonly maxTextLength: number,
  ) {
    this.params = new URLSearchParams(raw);
  }

  optional(name: string): string | undefined {
    return this.checked(name, this.params.get(name)) ?? undefined;
  }

  required(name: string): string {
    const value = this.checked(name, this.params.get(name));
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

  private checked(name: string, value: string | null): string | null {
    if (value !== null && value.length > this.maxTextLength) {
      throw new HttpError(
        400,
        `Request parameter '${name}' is longer than ${this.maxTextLength} characters`,
        {},
        'TEXT_TOO_LONG',
      );
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
