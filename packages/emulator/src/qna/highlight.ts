import type { Passage } from './hit.js';
import { normaliseTerm } from './terms.js';

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

interface Word {
  start: number;
  end: number;
  term: string;
}

// A passage's words and their terms never change: found once per passage, not on every search.
const wordsOf = new WeakMap<Passage, Word[]>();

function words(passage: Passage): Word[] {
  let known = wordsOf.get(passage);
  if (!known) {
    known = [];
    for (const m of passage.text.matchAll(/[\p{L}\p{N}]+/gu)) {
      const term = normaliseTerm(m[0]);
      if (term) known.push({ start: m.index, end: m.index + m[0].length, term });
    }
    wordsOf.set(passage, known);
  }
  return known;
}

/**
 * A passage with each word that matches a query term, as written or as a prefix (retrieval matches
 * both), wrapped in `<em>`; undefined when no word matches. The rest of the text is HTML-escaped.
 */
export function highlight(passage: Passage, wanted: Set<string>): string | undefined {
  if (wanted.size === 0) return undefined;
  const { text } = passage;
  let out = '';
  let at = 0;
  for (const word of words(passage)) {
    if (!matches(word.term, wanted)) continue;
    out += `${escapeHtml(text.slice(at, word.start))}<em>${escapeHtml(text.slice(word.start, word.end))}</em>`;
    at = word.end;
  }
  return at === 0 ? undefined : out + escapeHtml(text.slice(at));
}

function matches(term: string, wanted: Set<string>): boolean {
  if (wanted.has(term)) return true;
  // A query term of three letters or more also matches the longer words it begins ("pass" finds "password").
  for (const w of wanted) if (w.length >= 3 && term.startsWith(w)) return true;
  return false;
}
