import { isSecretName } from './names.js';

/**
 * The credentials a request presented: the one an `Authorization` header carries after its scheme
 * (`SSWS <key>`, `Bearer <jwt>`), the value of every other secret-named header, each cookie's value,
 * and the value of every secret-named query parameter. They are what a redaction of the exchange
 * scrubs wherever else they show up (an echoing server, a body, a path).
 */
export function presentedCredentials(
  headers: Iterable<readonly [string, string]>,
  query: Iterable<readonly [string, string]> = [],
): string[] {
  const out: string[] = [];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      const trimmed = value.trim();
      const [, scheme, credential = trimmed] = /^(\S+)\s+(\S+)/.exec(trimmed) ?? [];
      out.push(credential);
      // A Basic credential is `user:password` in base64: the password may be echoed as it is.
      if (scheme?.toLowerCase() === 'basic') out.push(...basicPassword(credential));
    } else if (lower === 'cookie' || lower === 'set-cookie' || lower === 'set-cookie2') {
      for (const cookie of value.split(';')) out.push(cookie.split('=').slice(1).join('=').trim());
    } else if (isSecretName(lower)) out.push(value);
  }
  for (const [name, value] of query) if (isSecretName(name)) out.push(value);
  return out.filter((value) => value !== '');
}

/** The password of a Basic credential (base64 of `user:password`), if it decodes to one. */
function basicPassword(credential: string): string[] {
  try {
    const decoded = atob(credential);
    const colon = decoded.indexOf(':');
    return colon < 0 ? [] : [decoded.slice(colon + 1)];
  } catch {
    return [];
  }
}
