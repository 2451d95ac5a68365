import SearchableMap from 'minisearch/SearchableMap';

/** Words shorter than this are left as typed: one edit turns too many of them into another word. */
const minLength = 4;
/** Words this long may be two edits from the term meant (as Elasticsearch's `fuzziness: AUTO`); shorter ones one. */
const twoEditsFrom = 6;
/** Words longer than this are not corrected: the edit matrix grows with the square of the length. */
const maxLength = 32;
/** How much of a text is corrected: the sentence encoder reads no further (see sentence-encoder.ts). */
const maxCorrectedChars = 1000;

/**
 * Corrects the misspelt words of a question before it is embedded: a word that neither the corpus nor
 * the English word list holds becomes the corpus term fewest edits from it ("waranty" →
 * `warranty`, "trakcing" → `tracking`), the commoner English word on a tie. The sentence encoder and the
 * word vectors read a misspelling as an unknown word; BM25 already matches it fuzzily on its own.
 */
export class Speller {
  private readonly terms = new SearchableMap<true>();

  /**
   * `vocabulary`: the corpus's terms, as normaliseTerm leaves them. `frequency`: a lower-case word's rank
   * in the English word list, lower for commoner words; undefined for a word the list lacks.
   */
  constructor(
    private readonly vocabulary: ReadonlySet<string>,
    private readonly frequency: (word: string) => number | undefined,
  ) {
    for (const term of vocabulary) if (/^\p{L}+$/u.test(term)) this.terms.set(term, true);
  }

  /** `text` with its unknown words corrected; the same string when nothing needed it. */
  correct(text: string): string {
    const head = text.slice(0, maxCorrectedChars);
    const corrected = head.replace(/\p{L}+/gu, (word) => this.correctWord(word));
    return corrected === head ? text : corrected + text.slice(maxCorrectedChars);
  }

  private correctWord(word: string): string {
    if (word.length < minLength || word.length > maxLength) return word;
    const lower = word.toLowerCase();
    if (this.vocabulary.has(lower) || this.frequency(lower) !== undefined) return word;
    // The corpus's terms are kept without a plural `s`.
    if (lower.endsWith('s') && this.vocabulary.has(lower.slice(0, -1))) return word;
    let best: string | undefined;
    let bestDistance = Number.POSITIVE_INFINITY;
    let bestRank = Number.POSITIVE_INFINITY;
    const results = this.terms.fuzzyGet(lower, lower.length >= twoEditsFrom ? 2 : 1);
    for (const [term, [, distance]] of results) {
      const rank = this.frequency(term) ?? Number.POSITIVE_INFINITY;
      const better =
        distance < bestDistance ||
        (distance === bestDistance &&
          (rank < bestRank || (rank === bestRank && best !== undefined && term < best)));
      if (better) {
        best = term;
        bestDistance = distance;
        bestRank = rank;
      }
    }
    return best ?? word;
  }
}
