import type { LoggedExchange } from './exchange-log.js';

/** Headers whose values are credentials, whatever they hold. */
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

export const redacted = '[redacted]';

/**
 * A copy of the entry fit for the page: credential headers keep only their scheme, and every
 * secret the emulator knows (its keys, its JWT secret) or the request presented is replaced
 * wherever it appears (query, bodies, other headers).
 */
export function redactExchange(entry: LoggedExchange, secrets: readonly string[]): LoggedExchange {
  const presented = credentialOf(entry.requestHeaders.authorization);
  const scrub = secretScrubber([...secrets, ...(presented ? [presented] : [])]);
  return {
    ...entry,
    path: scrub(entry.path),
    query: scrub(entry.query),
    requestHeaders: redactHeaders(entry.requestHeaders, scrub),
    requestBody: scrub(entry.requestBody),
    responseHeaders: redactHeaders(entry.responseHeaders, scrub),
    responseBody: scrub(entry.responseBody),
  };
}

/** Replaces each of `secrets` (4 characters or more), raw or percent-encoded, wherever it appears in a text. */
export function secretScrubber(secrets: readonly string[]): (text: string) => string {
  const known = secrets.filter((s) => s.length >= 4);
  // A secret sent in a query or a form is percent-encoded there.
  const all = [...new Set([...known, ...known.map(encodeURIComponent)])];
  // Longest first: a secret that contains another is replaced whole.
  all.sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of all) if (out.includes(secret)) out = out.split(secret).join(redacted);
    return out;
  };
}

/** Credential headers keep only their scheme; the others are scrubbed of known secrets. */
function redactHeaders(
  headers: Record<string, string>,
  scrub: (text: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = redactHeader(name, value, scrub);
  return out;
}

/** One header's value as redactHeaders gives it; `name` in lower case. */
export function redactHeader(name: string, value: string, scrub: (text: string) => string): string {
  if (!secretHeaders.has(name)) return scrub(value);
  const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
  return scheme && name.endsWith('authorization') ? `${scheme} ${redacted}` : redacted;
}

/** The credential of an `Authorization` value (`SSWS <key>`, `Bearer <jwt>`), if it has one. */
export function credentialOf(header: string | undefined): string | undefined {
  return header === undefined ? undefined : /^\S+\s+(\S+)/.exec(header.trim())?.[1];
}
