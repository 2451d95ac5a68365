import type { QnaSystem } from '../data/model.js';
import type { Varied } from './answer-variation.js';
import type { Hit, Passage } from './hit.js';
import { normaliseTerm } from './terms.js';

/** The normalised terms of a text (numbers such as `2.0` stay whole). */
export const termsOf = (text: string) =>
  new Set(
    text
      .split(/[^\p{L}\p{N}.]+/u)
      .map((t) => normaliseTerm(withoutTrailingDots(t)))
      .filter((t): t is string => !!t),
  );

/** `term` without the dots that end it; /\.+$/ would retry every dot of a long run: quadratic. */
function withoutTrailingDots(term: string): string {
  let end = term.length;
  while (end > 0 && term.charCodeAt(end - 1) === 0x2e) end -= 1;
  return term.slice(0, end);
}

interface Sentence {
  text: string;
  terms: Set<string>;
}

// A passage's sentences and their terms never change: split and normalise each passage once.
const sentencesOf = new WeakMap<Passage, Sentence[]>();

function sentences(passage: Passage): Sentence[] {
  let known = sentencesOf.get(passage);
  if (!known) {
    known = passage.text.split(/(?<=[.!?])\s+/).map((sentence) => ({
      text: sentence.trim().replace(/[.!?]$/, ''),
      terms: termsOf(sentence),
    }));
    sentencesOf.set(passage, known);
  }
  return known;
}

// A system's paragraphs never change once it is indexed: count its terms once.
const commonTermsOf = new WeakMap<QnaSystem, ReadonlySet<string>>();

/**
 * The terms found in at least half of a system's paragraphs (a product's name in its own manual):
 * sharing one says nothing about whether a paragraph answers a question. As in BM25, whose
 * Robertson-Sparck Jones weight of such a term is zero or less.
 */
export function commonTerms(system: QnaSystem): ReadonlySet<string> {
  let common = commonTermsOf.get(system);
  if (!common) {
    const counts = new Map<string, number>();
    let paragraphs = 0;
    for (const document of system.documents) {
      for (const paragraph of document.paragraphs) {
        paragraphs += 1;
        for (const term of termsOf(paragraph)) counts.set(term, (counts.get(term) ?? 0) + 1);
      }
    }
    common = new Set([...counts].filter(([, n]) => n * 2 >= paragraphs).map(([term]) => term));
    commonTermsOf.set(system, common);
  }
  return common;
}

/**
 * An extractive answer: the sentences of the retrieved contexts that share the most terms with the
 * question, in context order, each cited as [n] (n = its context's position). A sentence that several
 * contexts share is said once, citing each of them. Terms in `uninformative` do not count as shared:
 * a question that shares nothing else with the contexts gets no answer. Deterministic, unless `vary`
 * draws the sentences, their count and an opening, as an LLM sampling at a temperature does.
 */
export function composeAnswer(
  question: string,
  contexts: Hit[],
  maxSentences = 2,
  uninformative: ReadonlySet<string> = new Set(),
  vary?: Varied,
): string | undefined {
  const wanted = new Set([...termsOf(question)].filter((t) => !uninformative.has(t)));
  const candidates = new Map<string, { text: string; cites: number[]; score: number; order: number }>();
  contexts.forEach((hit, c) => {
    for (const { text, terms: have } of sentences(hit.passage)) {
      const known = candidates.get(text);
      if (known) {
        if (!known.cites.includes(c + 1)) known.cites.push(c + 1);
        continue;
      }
      let score = 0;
      for (const t of wanted) if (have.has(t)) score += 1;
      candidates.set(text, { text, cites: [c + 1], score, order: candidates.size });
    }
  });
  const relevant = [...candidates.values()].filter((s) => s.score > 0);
  // Varied, as a sampling LLM: the sentences drawn by their scores, one more or fewer, an opening.
  const keys = new Map(relevant.map((s) => [s, vary ? vary.key(s.score) : s.score]));
  const chosen = relevant
    .sort((a, b) => (keys.get(b) as number) - (keys.get(a) as number) || a.order - b.order)
    .slice(0, vary ? vary.count(maxSentences) : maxSentences)
    .sort((a, b) => a.order - b.order);
  if (chosen.length === 0) return undefined;
  const text = chosen.map((s) => `${s.text} ${s.cites.map((n) => `[${n}]`).join('')}.`).join(' ');
  return vary ? `${vary.opening()}${text}` : text;
}
