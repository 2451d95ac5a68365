import { splitWords } from './python-text.js';

/**
 * ROUGE-L as the `rouge` Python package computes it (summary level, its default `exclusive` mode), the
 * one continuous-eval calls: texts are split into sentences at every `.`, sentences into words at
 * spaces, case kept; the union of the longest common subsequences' words between every reference
 * sentence and every candidate sentence is counted against the distinct words of each side.
 */

export interface RougeL {
  /** Share of the reference's distinct words in the union LCS (`r`). */
  recall: number;
  /** Share of the candidate's distinct words in the union LCS (`p`). */
  precision: number;
  /** `f`, with the package's `1e-8` in the denominator. */
  f1: number;
}

function sentencesOf(text: string): string[][] {
  return text
    .split('.')
    .filter((part) => part.length > 0)
    .map((part) =>
      // `" ".join(part.split())` then `.split(" ")`, with Python's white space.
      splitWords(part).join(' ').split(' '),
    );
}

/** The LCS's words, recovered from the DP table the way the package walks it (ties step along `y`). */
function lcsWords(x: readonly string[], y: readonly string[], into: Set<string>): void {
  const width = y.length + 1;
  const table = new Uint32Array((x.length + 1) * width);
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      table[i * width + j] =
        x[i - 1] === y[j - 1]
          ? (table[(i - 1) * width + j - 1] as number) + 1
          : Math.max(table[(i - 1) * width + j] as number, table[i * width + j - 1] as number);
    }
  }
  let i = x.length;
  let j = y.length;
  while (i > 0 && j > 0) {
    if (x[i - 1] === y[j - 1]) {
      into.add(x[i - 1] as string);
      i -= 1;
      j -= 1;
    } else if ((table[(i - 1) * width + j] as number) > (table[i * width + j - 1] as number)) i -= 1;
    else j -= 1;
  }
}

// Faithfulness scores every sentence of an answer against the same joined context: its split is kept.
let lastReference: { text: string; references: string[][]; m: number } | undefined;

function referenceOf(text: string): { references: string[][]; m: number } {
  if (lastReference?.text !== text) {
    const references = sentencesOf(text);
    lastReference = { text, references, m: new Set(references.flat()).size };
  }
  return lastReference;
}

/** ROUGE-L of `candidate` against `reference`; undefined where the package raises (a side with no sentence). */
export function rougeL(candidate: string, reference: string): RougeL | undefined {
  const evaluated = sentencesOf(candidate);
  const { references, m } = referenceOf(reference);
  if (evaluated.length === 0 || references.length === 0) return undefined;
  const n = new Set(evaluated.flat()).size;
  const union = new Set<string>();
  for (const ref of references) for (const sentence of evaluated) lcsWords(ref, sentence, union);
  const recall = union.size / m;
  const precision = union.size / n;
  return { recall, precision, f1: 2 * ((precision * recall) / (precision + recall + 1e-8)) };
}
