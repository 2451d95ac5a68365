/**
 * BLEU as continuous-eval gets it: NLTK's `sentence_bleu([reference], prediction)` handed two strings,
 * so the n-grams are of characters (a string is a sequence of them), weights 1/4 for 1- to 4-grams, no
 * smoothing (NLTK's `method0`: an order with no match counts as the smallest float, not as zero), and
 * the brevity penalty.
 */

const SMALLEST_FLOAT = 2.2250738585072014e-308;

function ngramCounts(chars: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= chars.length; i++) {
    const gram = chars.slice(i, i + n).join('\u0000');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** The BLEU score of a prediction against one reference, from 0 to 1. */
export function bleu(prediction: string, reference: string): number {
  // Code points, as Python iterates a string.
  const hypothesis = Array.from(prediction);
  const ref = Array.from(reference);
  const logs: number[] = [];
  for (let n = 1; n <= 4; n++) {
    const counts = ngramCounts(hypothesis, n);
    const refCounts = ngramCounts(ref, n);
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
  const c = hypothesis.length;
  const r = ref.length;
  const penalty = c > r ? 1 : c === 0 ? 0 : Math.exp(1 - r / c);
  return penalty * Math.exp(logs.reduce((sum, value) => sum + value, 0));
}
