import type { Exchange } from '../http/exchange.js';
import { sha1Hex } from '../neutral/crypto.js';

/**
 * How long a client may keep a card before asking again (A2A section 8.6.1): cards change rarely,
 * and an ETag makes asking again cheap. `private`: the card is served to authenticated callers only.
 */
const CARD_CACHE_CONTROL = 'private, max-age=300';

/** A strong validator of a card's exact bytes: it changes whenever the card does. */
function cardEtag(body: string): string {
  return `"${sha1Hex(body)}"`;
}

/** Whether an `If-None-Match` value names this ETag (`*`, or one of a list; `W/` compared weakly, as RFC 9110 says). */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * Answers a card request: the card with `Cache-Control`, `ETag` and `Vary: A2A-Version` (the version a
 * request names chooses the card), or `304` without a body when `If-None-Match` names the card's ETag.
 */
export function replyWithCard(ex: Exchange, card: unknown): void {
  const body = JSON.stringify(card);
  const headers = { 'cache-control': CARD_CACHE_CONTROL, etag: cardEtag(body), vary: 'A2A-Version' };
  if (matchesEtag(ex.headers['if-none-match'], headers.etag)) {
    ex.reply.empty(304, headers);
    return;
  }
  ex.reply.send(200, 'application/json', body, headers);
}
