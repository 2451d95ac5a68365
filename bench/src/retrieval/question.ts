/**
 * One question of the retrieval evaluation, phrased as a new user would ask it: without the words of
 * the passages that answer it. `relevant` says what marks a passage that answers it: its document's
 * title begins with `title` and, when given, its text contains `text`. Product documentation repeats
 * each topic for three versions; a title without a version admits any of them. An empty `relevant`
 * marks a question the corpus has no answer to: the answer endpoint must say so and cite nothing.
 */
export interface EvaluationQuestion {
  readonly system: 'Product Documentation' | 'Customer Support Knowledge Base';
  readonly question: string;
  /** What makes the question hard: how it avoids the corpus's words, or that nothing answers it. */
  readonly kind: QuestionKind;
  readonly relevant: readonly { readonly title: string; readonly text?: string }[];
}

type QuestionKind =
  /** Other words for the same things ("money back" for refund). */
  | 'synonym'
  /** The situation described, not the subject named ("the box came crushed"). */
  | 'indirect'
  /** Misspelt as typed in a hurry. */
  | 'typo'
  /** Names a value of a filter field (a version, a region, a membership tier). */
  | 'filter'
  /** Nothing in the corpus answers it. */
  | 'no-answer';

export const docs = 'Product Documentation';
export const kb = 'Customer Support Knowledge Base';
