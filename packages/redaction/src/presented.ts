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
      // Sent twice, a header may arrive joined with `, ` (`SSWS <a>, SSWS <b>`): every credential counts.
      for (const one of value.split(',')) out.push(...authorizationCredentials(one.trim()));
    } else if (lower === 'cookie' || lower === 'set-cookie' || lower === 'set-cookie2') {
      for (const cookie of value.split(/[;,]/)) out.push(cookie.split('=').slice(1).join('=').trim());
    } else if (isSecretName(lower)) {
      out.push(value);
      if (value.includes(',')) out.push(...value.split(',').map((part) => part.trim()));
    }
  }
  for (const [name, value] of query) if (isSecretName(name)) out.push(value);
  return out.filter((value) => value !== '');
}

/** The credential of one `Authorization` value after its scheme, and a Basic credential's password. */
function authorizationCredentials(value: string): string[] {
  const [, scheme, credential = value] = /^(\S+)\s+(\S+)/.exec(value) ?? [];
  // A Basic credential is `user:password` in base64: the password may be echoed as it is.
  return scheme?.toLowerCase() === 'basic' ? [credential, ...basicPassword(credential)] : [credential];
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
