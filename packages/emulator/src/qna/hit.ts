import type { CorpusDocument } from '../data/model.js';

/** One indexed paragraph of a document. */
export interface Passage {
  id: number;
  document: CorpusDocument;
  text: string;
  /** Equal for passages that repeat one another (see repeats.ts). */
  repeatKey: string;
}

export interface Hit {
  passage: Passage;
  /** From 0 to 1. */
  score: number;
}
