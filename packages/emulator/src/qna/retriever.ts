import MiniSearch from 'minisearch';
import type { CorpusDocument, QnaSystem } from '../data/model.js';
import { type FilterExpression, matchesFilter } from './filter.js';

/** One indexed paragraph of a document. */
export interface Passage {
  id: number;
  document: CorpusDocument;
  text: string;
}

export interface Hit {
  passage: Passage;
  score: number;
}

const stopWords = new Set(
  'a an and are as at be by can do does for from has have how i if in is it its me my of on or our so that the their then there this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

/** Lower-cases, drops stop words and a plural `s`, so "passwords" finds "password". */
export function normaliseTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (stopWords.has(t)) return null;
  return t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t;
}

const tokenize: (text: string) => string[] = MiniSearch.getDefault('tokenize');

/** Longer query terms are matched as written or by prefix, never fuzzily. */
const maxFuzzyTermLength = 32;

/**
 * Ranked retrieval over one system's paragraphs (MiniSearch BM25 with prefix matching, and fuzzy
 * matching for terms the corpus does not hold, i.e. likely misspellings).
 */
export class Retriever {
  private readonly passages: Passage[] = [];
  /** Every indexed term, as normaliseTerm leaves it. */
  private readonly vocabulary = new Set<string>();
  /** Indexed terms that begin a longer indexed term. */
  private readonly extendable = new Set<string>();
  private readonly index = new MiniSearch<{ id: number; title: string; text: string }>({
    fields: ['title', 'text'],
    processTerm: normaliseTerm,
    searchOptions: {
      boost: { title: 1.5 },
      // Prefix expansion of a term no longer indexed term starts with would find only the term itself.
      prefix: (term) => !this.vocabulary.has(term) || this.extendable.has(term),
      // Fuzzy expansion is most of a search's cost; a term found as written is not a misspelling, and
      // neither is a long one (MiniSearch's edit matrix grows with the square of the term's length).
      fuzzy: (term) => (term.length > maxFuzzyTermLength || this.vocabulary.has(term) ? false : 0.15),
      combineWith: 'OR',
    },
  });

  constructor(system: QnaSystem) {
    for (const document of system.documents) {
      this.learn(document.title);
      for (const text of document.paragraphs) {
        const passage = { id: this.passages.length, document, text };
        this.passages.push(passage);
        this.index.add({ id: passage.id, title: document.title, text });
        this.learn(text);
      }
    }
    // Sorted, the terms a term begins come right after it.
    const sorted = [...this.vocabulary].sort();
    sorted.forEach((term, i) => {
      if (sorted[i + 1]?.startsWith(term)) this.extendable.add(term);
    });
  }

  private learn(text: string): void {
    for (const token of tokenize(text)) {
      const term = normaliseTerm(token);
      if (term) this.vocabulary.add(term);
    }
  }

  search(query: string, filter: FilterExpression, limit: number): Hit[] {
    const results =
      filter.clauses.length === 0
        ? this.index.search(query)
        : this.index.search(query, {
            filter: (r) => {
              const passage = this.passages[r.id as number];
              return passage !== undefined && matchesFilter(passage.document, filter);
            },
          });
    const hits: Hit[] = [];
    for (const r of results) {
      const passage = this.passages[r.id as number];
      if (passage) hits.push({ passage, score: r.score });
      if (hits.length >= limit) break;
    }
    return hits;
  }
}
