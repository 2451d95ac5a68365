/**
 * The retrieval settings the emulator runs with, reported as a system's `params` (the keys
 * deployments use). Search and answer read their default result counts from here.
 */
export const retrievalSettings = {
  /** Embeddings compared by cosine similarity (blended with BM25, see the README's Retrieval). */
  SIMILARITY_METRIC: 'COSINE',
  /** No threshold: every passage the filters admit is ranked, and the best k are returned. */
  SIMILARITY_THRESHOLD: 0,
  /** Results of a search when `properties` sets no `context`. */
  SEARCH_TOP_K: 5,
  /** Contexts of an answer when `properties` sets no `context`. */
  ANSWER_TOP_K: 3,
} as const;
