const REDACTED = '[redacted]';
const SENSITIVE_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)$/i;
// Shorter values are too likely to occur by chance; scrubbing them would mangle unrelated text.
const MIN_SCRUBBED_LENGTH = 8;
const SENSITIVE_QUERY_NAME = /key|token|secret|password|auth|signature/i;

/** Headers as a plain object for a log line, credentials and cookies replaced. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SENSITIVE_HEADER.test(name) ? REDACTED : value;
  });
  return out;
}

/** A URL for a log line: query values whose names suggest a credential are replaced. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.slice(0, query);
  }
  let changed = false;
  for (const name of [...parsed.searchParams.keys()]) {
    if (SENSITIVE_QUERY_NAME.test(name)) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? parsed.toString() : url;
}

/** Replaces every occurrence of each secret in `text` (a server echoing a credential must not leak it). */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SCRUBBED_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** A parsed body with every secret removed; returned unchanged when none occurs. */
export function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return scrubSecrets(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  const text = JSON.stringify(value);
  // A secret inside JSON text may appear with its special characters escaped.
  const scrubbed = scrubSecrets(text, [...secrets, ...secrets.map((s) => JSON.stringify(s).slice(1, -1))]);
  return scrubbed === text ? value : JSON.parse(scrubbed);
}

/** Removes secrets a server echoed from an error's message, stack and body, in place. */
export function scrubError(error: Error, secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  const target = error as unknown as Record<string, unknown>;
  for (const key of ['message', 'stack', 'failureReason', 'body']) {
    const value = target[key];
    if (value === undefined) continue;
    const scrubbed = scrubValue(value, secrets);
    if (scrubbed !== value) {
      const enumerable = Object.getOwnPropertyDescriptor(error, key)?.enumerable ?? false;
      Object.defineProperty(error, key, { value: scrubbed, writable: true, configurable: true, enumerable });
    }
  }
}
