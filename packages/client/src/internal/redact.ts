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

/**
 * Replaces every occurrence of each secret in `text`, as it is and as it reads inside a JSON string
 * (with `"` and `\` escaped): a server echoing a credential must not leak it, however it quotes it.
 */
function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SCRUBBED_LENGTH) continue;
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret && out.includes(escaped)) out = out.split(escaped).join(REDACTED);
  }
  return out;
}

function isPlainData(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}

/** A parsed body with every secret removed; returned unchanged when none occurs. */
function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return scrubSecrets(value, secrets);
  // Class instances (Headers, errors) are not data; JSON would flatten them.
  if (value === null || typeof value !== 'object' || !isPlainData(value)) return value;
  const text = JSON.stringify(value);
  const scrubbed = scrubSecrets(text, secrets);
  return scrubbed === text ? value : JSON.parse(scrubbed);
}

/** Headers with every secret removed from their values; the same object when none occurs. */
function scrubHeaders(headers: Headers, secrets: readonly string[]): Headers {
  let changed = false;
  const copy = new Headers();
  headers.forEach((value, name) => {
    const scrubbed = scrubSecrets(value, secrets);
    if (scrubbed !== value) changed = true;
    copy.append(name, scrubbed);
  });
  return changed ? copy : headers;
}

/** Any value with every secret removed: an error in place, text or parsed JSON as a scrubbed copy. */
export function scrubAny<T>(value: T, secrets: readonly string[]): T {
  if (value instanceof Error) {
    scrubError(value, secrets);
    return value;
  }
  return scrubValue(value, secrets) as T;
}

/**
 * Removes secrets a server echoed from an error, in place: its message, stack and every own data
 * field (body, headers, failureReason, a JSON-RPC error's data, ...), and its cause, likewise.
 */
function scrubError(error: Error, secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    for (const key of Object.getOwnPropertyNames(current)) {
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      if (!descriptor || !('value' in descriptor) || descriptor.value === undefined) continue;
      const scrubbed =
        descriptor.value instanceof Headers
          ? scrubHeaders(descriptor.value, secrets)
          : scrubValue(descriptor.value, secrets);
      if (scrubbed !== descriptor.value) {
        Object.defineProperty(current, key, { ...descriptor, value: scrubbed, writable: true });
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
}
