import type { Hit } from './retriever.js';
import { normaliseTerm } from './retriever.js';

const terms = (text: string) =>
  new Set(
    text
      .split(/[^\p{L}\p{N}.]+/u)
      .map((t) => normaliseTerm(t.replace(/\.+$/, '')))
      .filter((t): t is string => !!t),
  );

/**
 * An extractive answer: the sentences of the retrieved contexts that share the most terms with the
 * question, in context order, each cited as [n] (n = its context's position). Deterministic.
 */
export function composeAnswer(question: string, contexts: Hit[], maxSentences = 2): string | undefined {
  const wanted = terms(question);
  const candidates: { text: string; cite: number; score: number; order: number }[] = [];
  contexts.forEach((hit, c) => {
    for (const sentence of hit.passage.text.split(/(?<=[.!?])\s+/)) {
      const have = terms(sentence);
      let score = 0;
      for (const t of wanted) if (have.has(t)) score += 1;
      candidates.push({ text: sentence.trim(), cite: c + 1, score, order: candidates.length });
    }
  });
  const chosen = candidates
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, maxSentences)
    .sort((a, b) => a.order - b.order);
  if (chosen.length === 0) return undefined;
  return chosen.map((s) => `${s.text.replace(/[.!?]$/, '')} [${s.cite}].`).join(' ');
}
