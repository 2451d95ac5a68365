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
      out.push(/^\S+\s+(\S+)/.exec(trimmed)?.[1] ?? trimmed);
    } else if (lower === 'cookie' || lower === 'set-cookie' || lower === 'set-cookie2') {
      for (const cookie of value.split(';')) out.push(cookie.split('=').slice(1).join('=').trim());
    } else if (isSecretName(lower)) out.push(value);
  }
  for (const [name, value] of query) if (isSecretName(name)) out.push(value);
  return out.filter((value) => value !== '');
}
