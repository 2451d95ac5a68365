import { isSecretName, presentedCredentials, REDACTED, Redaction } from '@dataworkz/redaction';
import type { CassetteEntry, HarNameValue } from './har.js';

/**
 * The SDK's one redaction policy (@dataworkz/redaction) applied to a cassette's entries: which names
 * and values are secrets is decided there, not here.
 */

/**
 * The policy set up for one exchange: the credentials its request presented (the `Authorization`
 * credential, secret-named headers and query parameters, cookies), the cookies its response set, and
 * any `secrets` given (the emulator's own keys).
 */
export function redactionFor(entry: CassetteEntry, secrets: readonly string[] = []): Redaction {
  const pairs = (list: readonly HarNameValue[]) => list.map(({ name, value }) => [name, value] as const);
  return new Redaction([
    ...secrets,
    ...presentedCredentials(pairs(entry.request.headers), pairs(entry.request.queryString)),
    ...presentedCredentials(pairs(entry.response.headers.filter((h) => /^set-cookie2?$/i.test(h.name)))),
  ]);
}

/**
 * The entry as a cassette keeps it: secret-named headers, query parameters and JSON members redacted
 * (`Authorization` keeps its scheme), and every secret replaced wherever else it rides, bodies and
 * every field of a stream's events included. The bodies must be whole (not yet cut to a limit).
 */
export function redactEntry(entry: CassetteEntry, secrets: readonly string[] = []): CassetteEntry {
  const redaction = redactionFor(entry, secrets);
  const out = redactEnvelope(entry, redaction);
  const { postData } = out.request;
  return {
    ...out,
    request: {
      ...out.request,
      ...(postData ? { postData: { ...postData, text: redaction.body(postData.text) } } : {}),
    },
    response: { ...out.response, content: redactContent(out.response.content, redaction) },
  };
}

/**
 * Everything of the entry but its bodies redacted: the URL (path, query, user info), the headers, the
 * query, the status text, the redirect URL, and the events of a stream (`id`, `event` and `data`).
 */
export function redactEnvelope(entry: CassetteEntry, redaction: Redaction): CassetteEntry {
  const { request, response } = entry;
  const headers = (pairs: readonly HarNameValue[]) =>
    pairs.map(({ name, value }) => ({ name, value: redaction.header(name, value) }));
  return {
    ...entry,
    request: {
      ...request,
      url: redaction.url(request.url),
      headers: headers(request.headers),
      cookies: [],
      queryString: request.queryString.map(({ name, value }) => ({
        name,
        value: isSecretName(name) ? REDACTED : redaction.text(value),
      })),
    },
    response: {
      ...response,
      statusText: redaction.text(response.statusText),
      headers: headers(response.headers),
      cookies: [],
      redirectURL: redaction.url(response.redirectURL),
    },
    ...(entry._events
      ? {
          _events: entry._events.map((e) => ({
            ...e,
            ...(e.event === undefined ? {} : { event: redaction.text(e.event) }),
            ...(e.id === undefined ? {} : { id: redaction.text(e.id) }),
            data: redaction.body(e.data),
          })),
        }
      : {}),
  };
}

/** A response's content redacted: text as a body, base64 as the bytes it encodes. */
function redactContent(
  content: CassetteEntry['response']['content'],
  redaction: Redaction,
): CassetteEntry['response']['content'] {
  if (content.text === undefined) return content;
  if (content.encoding !== 'base64') return { ...content, text: redaction.body(content.text) };
  const bytes = Uint8Array.from(atob(content.text), (c) => c.charCodeAt(0));
  const scrubbed = redaction.bytes(bytes);
  if (scrubbed === bytes) return content;
  let binary = '';
  for (const byte of scrubbed) binary += String.fromCharCode(byte);
  return { ...content, text: btoa(binary) };
}
