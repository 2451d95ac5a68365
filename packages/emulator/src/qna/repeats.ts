import type { Hit } from './hit.js';

/**
 * What two passages share when one repeats the other: their text, lower-cased, with version numbers
 * ("1.2", "2.0.1") and spacing evened out. Documentation kept per release repeats most paragraphs word for
 * word ("Known issues in 2.1 are listed on the status page."); a paragraph whose figures differ ("up to 12
 * widgets" and "up to 48") says something else and is not a repeat.
 */
export function repeatKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\d+(?:\.\d+)+/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A repeat keeps this share of its score. Without it, a paragraph three releases repeat takes three of
 * the five results and pushes out the passages that say something else; demoted rather than dropped, it
 * still shows when nothing else scores near it, and a version filter (one release) leaves nothing to demote.
 */
const repeatShare = 0.5;

/**
 * The `limit` best of `ranked` (best first) once each passage that repeats a better one has its score
 * scaled by `repeatShare`. `ranked` must hold the candidates' best `limit × copies` at least, `copies` being
 * the most passages one key has, so that a demoted repeat cannot hide a passage left out of `ranked`.
 */
export function demoteRepeats(ranked: readonly Hit[], keyOf: (hit: Hit) => string, limit: number): Hit[] {
  const seen = new Set<string>();
  const scored = ranked.map((hit) => {
    const key = keyOf(hit);
    if (!seen.has(key)) {
      seen.add(key);
      return hit;
    }
    return { passage: hit.passage, score: hit.score * repeatShare };
  });
  // Array#sort is stable: equal scores keep their ranked order.
  return scored.sort((a, b) => b.score - a.score).slice(0, limit);
}
