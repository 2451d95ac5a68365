/**
 * BLEU as continuous-eval gets it: NLTK's `sentence_bleu([reference], prediction)` handed two strings,
 * so the n-grams are of characters (a string is a sequence of them), weights 1/4 for 1- to 4-grams, no
 * smoothing (NLTK's `method0`: an order with no match counts as the smallest float, not as zero), and
 * the brevity penalty.
 */

const SMALLEST_FLOAT = 2.2250738585072014e-308;

/** A text's code points as offsets into it: the n-gram at i is `text.slice(at[i], at[i + n])`. */
function codePointOffsets(text: string): number[] {
  const at: number[] = [];
  let offset = 0;
  for (const char of text) {
    at.push(offset);
    offset += char.length;
  }
  at.push(offset);
  return at;
}

function ngramCounts(text: string, at: readonly number[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n < at.length; i++) {
    const gram = text.slice(at[i] as number, at[i + n] as number);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

// Faithfulness scores every sentence of an answer against the same joined context: its n-gram counts
// are kept for the next call.
let lastReference: { text: string; length: number; counts: Map<string, number>[] } | undefined;

function referenceCounts(reference: string): { length: number; counts: Map<string, number>[] } {
  if (lastReference?.text !== reference) {
    const at = codePointOffsets(reference);
    lastReference = {
      text: reference,
      length: at.length - 1,
      counts: [1, 2, 3, 4].map((n) => ngramCounts(reference, at, n)),
    };
  }
  return lastReference;
}

/** The BLEU score of a prediction against one reference, from 0 to 1. */
export function bleu(prediction: string, reference: string): number {
  // Code points, as Python iterates a string.
  const at = codePointOffsets(prediction);
  const ref = referenceCounts(reference);
  const logs: number[] = [];
  for (let n = 1; n <= 4; n++) {
    const counts = ngramCounts(prediction, at, n);
    const refCounts = ref.counts[n - 1] as Map<string, number>;
    let clipped = 0;
    let total = 0;
    for (const [gram, count] of counts) {
      clipped += Math.min(count, refCounts.get(gram) ?? 0);
      total += count;
    }
    // No unigram in common: NLTK returns 0 outright.
    if (n === 1 && clipped === 0) return 0;
    logs.push(0.25 * Math.log(clipped === 0 ? SMALLEST_FLOAT : clipped / Math.max(1, total)));
  }
  const c = at.length - 1;
  const r = ref.length;
  const penalty = c > r ? 1 : c === 0 ? 0 : Math.exp(1 - r / c);
  return penalty * Math.exp(logs.reduce((sum, value) => sum + value, 0));
}
