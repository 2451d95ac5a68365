import { normaliseTerm } from './retriever.js';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text made safe to sit between highlight tags that pages render as HTML. */
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => escapes[c] ?? c);

/** The normalised terms of a query, for highlighting. */
export function queryTerms(query: string): Set<string> {
  const wanted = new Set<string>();
  for (const word of query.split(/[^\p{L}\p{N}]+/u)) {
    const term = word ? normaliseTerm(word) : null;
    if (term) wanted.add(term);
  }
  return wanted;
}

/**
 * A passage with each word that matches a query term, as written or as a prefix (retrieval matches
 * both), wrapped in `<em>`; undefined when no word matches. The rest of the text is HTML-escaped.
 */
export function highlight(text: string, wanted: Set<string>): string | undefined {
  if (wanted.size === 0) return undefined;
  let matched = false;
  let out = '';
  let at = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const term = normaliseTerm(m[0]);
    if (!term || !matches(term, wanted)) continue;
    const start = m.index;
    out += `${escapeHtml(text.slice(at, start))}<em>${escapeHtml(m[0])}</em>`;
    at = start + m[0].length;
    matched = true;
  }
  return matched ? out + escapeHtml(text.slice(at)) : undefined;
}

function matches(term: string, wanted: Set<string>): boolean {
  if (wanted.has(term)) return true;
  // A query term of three letters or more also matches the longer words it begins ("pass" finds "password").
  for (const w of wanted) if (w.length >= 3 && term.startsWith(w)) return true;
  return false;
}
