import { credentialOf, redacted, redactHeader, secretScrubber } from '../console/redact.js';
import type { CassetteEntry, HarNameValue } from './har.js';

/** Header and query names that carry credentials, beyond the console's fixed list of headers. */
const secretName =
  /(^|[-_])(auth|authorization|token|access[-_]?token|api[-_]?key|apikey|key|secret|password|passwd|session|cookie|signature|sig|credentials?)$/i;

/** JSON member names whose values are secrets wherever they appear (an LLM's `params` carry provider keys). */
const secretMember =
  /^(.*[-_])?(api[-_]?key|apikey|secret|password|passwd|token|access[-_]?token|refresh[-_]?token|credentials?|aws[-_]?key|aws[-_]?secret|private[-_]?key)$/i;

/** What every name secretMember matches contains (case aside). */
const secretWord = /key|secret|passw|token|credential/i;

/**
 * The entry as a cassette keeps it: credential headers keep only their scheme, credentials in the
 * query and secret-named JSON members become `[redacted]`, and the credential the caller presented
 * (plus any `secrets` given) is replaced wherever else it appears, bodies and events included.
 */
export function redactEntry(entry: CassetteEntry, secrets: readonly string[] = []): CassetteEntry {
  // Every credential header as sent: a caller may repeat one, and the deployment may echo any of them.
  const presented = entry.request.headers
    .filter((h) => /^(proxy-)?authorization$/i.test(h.name))
    .map((h) => credentialOf(h.value))
    .filter((s): s is string => s !== undefined);
  // A key sent in another header (`x-api-key`, a cookie) is scrubbed wherever else it shows up too.
  const headerCredentials = entry.request.headers
    .filter((h) => secretName.test(h.name) && !/^(proxy-)?authorization$/i.test(h.name))
    .flatMap((h) =>
      /^cookie$/i.test(h.name)
        ? h.value.split(';').map((c) => c.split('=').slice(1).join('=').trim())
        : [h.value],
    );
  const queryCredentials = entry.request.queryString
    .filter((p) => secretName.test(p.name))
    .map((p) => p.value);
  const scrub = secretScrubber([...secrets, ...presented, ...headerCredentials, ...queryCredentials]);
  const text = (body: string | undefined) => (body === undefined ? undefined : scrubJson(body, scrub));
  const { request, response } = entry;
  const postText = text(request.postData?.text);
  const bodyText = text(response.content.text);
  return {
    ...entry,
    request: {
      ...request,
      url: redactUrl(request.url, scrub),
      headers: redactPairs(request.headers, scrub),
      cookies: [],
      queryString: request.queryString.map((p) => ({
        name: p.name,
        value: secretName.test(p.name) ? redacted : scrub(p.value),
      })),
      ...(request.postData && postText !== undefined
        ? { postData: { ...request.postData, text: postText } }
        : {}),
    },
    response: {
      ...response,
      headers: redactPairs(response.headers, scrub),
      cookies: [],
      content: { ...response.content, ...(bodyText === undefined ? {} : { text: bodyText }) },
    },
    ...(entry._events
      ? { _events: entry._events.map((e) => ({ ...e, data: scrubJson(e.data, scrub) })) }
      : {}),
  };
}

function redactPairs(pairs: readonly HarNameValue[], scrub: (text: string) => string): HarNameValue[] {
  return pairs.map(({ name, value }) => {
    const lower = name.toLowerCase();
    if (secretName.test(lower) && lower !== 'authorization' && lower !== 'proxy-authorization') {
      return { name, value: redacted };
    }
    return { name, value: redactHeader(lower, value, scrub) };
  });
}

/** The URL with secret-named query values redacted and known secrets scrubbed (user info dropped). */
function redactUrl(url: string, scrub: (text: string) => string): string {
  const at = url.indexOf('?');
  const base = scrub(at < 0 ? url : url.slice(0, at)).replace(/^(\w+:\/\/)[^@/]*@/, '$1');
  if (at < 0) return base;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {}
      return eq >= 0 && secretName.test(decoded) ? `${name}=${encodeURIComponent(redacted)}` : scrub(pair);
    })
    .join('&');
  return `${base}?${query}`;
}

/** A JSON text with secret-named members redacted and secrets scrubbed; other text only scrubbed. */
function scrubJson(text: string, scrub: (text: string) => string): string {
  const scrubbed = scrub(text);
  // A text that names no secret member (and escapes no character, which could spell one) is left as
  // it is without being parsed: most bodies, and the parse is the dearest part of redacting them.
  if (!secretWord.test(scrubbed) && !scrubbed.includes('\\u')) return scrubbed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(scrubbed);
  } catch {
    return scrubbed;
  }
  let changed = false;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(value)) {
      if (secretMember.test(name) && typeof member === 'string' && member !== '') {
        out[name] = redacted;
        changed = true;
      } else out[name] = walk(member);
    }
    return out;
  };
  const walked = walk(parsed);
  // Untouched bodies keep their bytes as the deployment sent them.
  return changed ? JSON.stringify(walked) : scrubbed;
}
