/**
 * The retrieval settings the emulator runs with, reported as a system's `params` (the keys
 * deployments use). Search and answer read their default result counts from here.
 */
export const retrievalSettings = {
  /** MiniSearch ranks passages by BM25; its scores are not bounded. */
  SIMILARITY_METRIC: 'BM25',
  /** Every passage that matches a term is a candidate. */
  SIMILARITY_THRESHOLD: 0,
  /** Results of a search when `properties` sets no `context`. */
  SEARCH_TOP_K: 5,
  /** Contexts of an answer when `properties` sets no `context`. */
  ANSWER_TOP_K: 3,
} as const;
