const REDACTED = '[redacted]';
const SENSITIVE_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)$/i;
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
    if (secret.length > 0 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}
