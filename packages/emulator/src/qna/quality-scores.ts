import { termsOf } from './compose-answer.js';
import type { AnsweredQuestion } from './queries.js';

/** The quality scores of an answered question, spelled as the service spells them. */
export interface QualityScores {
  retrival_relevance: number;
  retrival_context_recall: number;
  generation_relevance: number;
  generation_groundedness: number;
  generation_correctness: number;
  generation_confidence_score: number;
}

/** A sentence's terms must be this much inside a context for the context to support it. */
const supportShare = 0.8;

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
const round = (n: number) => Math.round(n * 1000) / 1000;

function overlap(wanted: Set<string>, have: Set<string>): number {
  let n = 0;
  for (const t of wanted) if (have.has(t)) n += 1;
  return n;
}

/** The answer's sentences with the contexts each cites (`[n]`, 1-based), citations taken out. */
function sentencesOf(answer: string): { terms: Set<string>; cites: number[] }[] {
  return answer
    .trim()
    .split(/(?<=[.!?])\s+/)
    .filter((s) => s.trim() !== '')
    .map((sentence) => ({
      terms: termsOf(sentence.replace(/\[\d+\]/g, ' ')),
      cites: [...sentence.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])),
    }));
}

/**
 * Scores computed from the question, the retrieved contexts and the answer, all in [0, 1]:
 * - retrival_relevance: per context, the share of the question's terms it holds; averaged.
 * - retrival_context_recall: the share of the question's terms found in at least one context.
 * - generation_relevance: the share of the question's terms the answer uses.
 * - generation_groundedness: the share of answer sentences that some context supports (holds at
 *   least 80% of the sentence's terms).
 * - generation_correctness: the share of the answer's citations whose cited context supports the
 *   sentence citing it.
 * - generation_confidence_score: context recall times groundedness (high only when the question was
 *   covered and the answer keeps to what was retrieved).
 */
export function qualityScores(answered: AnsweredQuestion): QualityScores {
  const wanted = termsOf(answered.query);
  const contexts = answered.contexts.map(termsOf);
  const found = new Set<string>();
  for (const c of contexts) for (const t of c) if (wanted.has(t)) found.add(t);
  const relevance = share(
    contexts.reduce((sum, c) => sum + share(overlap(wanted, c), wanted.size), 0),
    contexts.length,
  );
  const recall = share(found.size, wanted.size);
  const sentences = sentencesOf(answered.answer);
  const answerTerms = new Set(sentences.flatMap((s) => [...s.terms]));
  const supports = (context: Set<string> | undefined, terms: Set<string>) =>
    context !== undefined && terms.size > 0 && share(overlap(terms, context), terms.size) >= supportShare;
  const grounded = sentences.filter((s) => contexts.some((c) => supports(c, s.terms))).length;
  const citations = sentences.flatMap((s) => s.cites.map((n) => supports(contexts[n - 1], s.terms)));
  const groundedness = share(grounded, sentences.length);
  return {
    retrival_relevance: round(relevance),
    retrival_context_recall: round(recall),
    generation_relevance: round(share(overlap(wanted, answerTerms), wanted.size)),
    generation_groundedness: round(groundedness),
    generation_correctness: round(share(citations.filter(Boolean).length, citations.length)),
    generation_confidence_score: round(recall * groundedness),
  };
}
