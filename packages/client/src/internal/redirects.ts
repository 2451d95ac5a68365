import { isSecretName } from '@dataworkz/redaction';
import { type Redactor, RedirectError } from '../core/errors.js';
import type { Outgoing } from './outgoing.js';

/** How the pipeline calls fetch: with a URL and init, so no Request is built twice per call. */
export type SendFetch = (url: string, init: RequestInit) => Promise<Response>;

/** What following redirects needs of the transport. */
export interface RedirectExchange {
  fetch: SendFetch;
  /** Removes the credential `authorization` carries, and every other one the client knows, from a value. */
  redactorFor(authorization: string): Redactor;
}

/**
 * The most redirect hops one request follows; the next redirect is a RedirectError. Kept small: each
 * hop resends the credential (on the same origin) and the body, and a loop should fail fast.
 */
const MAX_REDIRECTS = 5;
// How much of each hop a RedirectError's message shows: a Location may be as long as a server likes.
const MAX_HOP_LABEL_CHARS = 120;

/**
 * Sends `request` and follows its redirects itself, so a credential never reaches another origin: at
 * most MAX_REDIRECTS hops; a streamed body is not replayed; browsers follow opaque redirects.
 */
export async function followRedirects(
  exchange: RedirectExchange,
  request: Outgoing,
  authorization: string,
): Promise<Response> {
  const fetchImpl = exchange.fetch;
  const { signal } = request;
  let { url, method, headers, body } = request;
  // The URLs redirected to, for the message should the chain run past MAX_REDIRECTS.
  const hops: string[] = [];
  for (;;) {
    const init: RequestInit & { duplex?: 'half' } = { method, headers, body, signal, redirect: 'manual' };
    // A streamed body needs half-duplex and cannot be replayed on a redirect.
    if (body instanceof ReadableStream) init.duplex = 'half';
    const response = await fetchImpl(url, init);
    if (response.type === 'opaqueredirect') {
      // Browsers hide manual redirects; their own following drops credentials across origins.
      return fetchImpl(url, { ...init, redirect: 'follow' });
    }
    const location = isRedirect(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    const keepsBody = response.status === 307 || response.status === 308;
    if (keepsBody && body instanceof ReadableStream) return response;
    await response.body?.cancel();
    const target = redirectTarget(response.status, location, url);
    if (hops.length >= MAX_REDIRECTS) {
      throw tooManyRedirects(response.status, request.url, hops, target, exchange.redactorFor(authorization));
    }
    headers = new Headers(headers);
    if (target.origin !== new URL(url).origin) {
      // Never forwarded to another origin: every header the redaction policy calls a secret.
      for (const name of [...headers.keys()]) if (isSecretName(name)) headers.delete(name);
    }
    if (!keepsBody) {
      headers.delete('content-type');
      headers.delete('content-length');
      body = null;
      if (method !== 'HEAD') method = 'GET';
    }
    url = target.href;
    hops.push(url);
  }
}

/**
 * The RedirectError for a chain longer than MAX_REDIRECTS, naming each hop by its path (and origin,
 * where it leaves the first one). Queries, fragments and user info are left out, as they may carry a
 * key; a credential the server put in a path is redacted before the path is shortened.
 */
function tooManyRedirects(
  status: number,
  start: string,
  hops: readonly string[],
  next: URL,
  redact: Redactor,
): RedirectError {
  const { origin } = new URL(start);
  const label = (url: URL): string => {
    const text = redact(url.origin === origin ? url.pathname : `${url.origin}${url.pathname}`);
    let decoded = text;
    try {
      decoded = decodeURIComponent(text);
    } catch {}
    // A credential the server percent-encoded is still the credential.
    if (redact(decoded) !== decoded) return '[redacted]';
    return text.length > MAX_HOP_LABEL_CHARS ? `${text.slice(0, MAX_HOP_LABEL_CHARS)}…` : text;
  };
  const chain = [start, ...hops].map((url) => label(new URL(url))).join(' → ');
  return new RedirectError(
    status,
    `Too many redirects (the client follows at most ${MAX_REDIRECTS}): ${chain}, ` +
      `then a ${status} to ${label(next)}, not followed.`,
  );
}

/** Where a redirect leads: only an http(s) URL is followed (fetch would read a `data:` URL itself). */
function redirectTarget(status: number, location: string, from: string): URL {
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new RedirectError(status, `The server redirected (${status}) to a Location that is not a URL.`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new RedirectError(
      status,
      `The server redirected (${status}) to a ${target.protocol} URL; only http and https redirects are followed.`,
    );
  }
  return target;
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}
