import { rougeL } from './rouge.js';

/**
 * continuous-eval's `PrecisionRecallF1` and `RankedRetrievalMetrics` with their default matching
 * strategy, `RougeChunkMatch`: a retrieved chunk matches a ground-truth passage when the ROUGE-L recall of
 * the passage by the chunk is at least 0.7.
 */

const CHUNK_MATCH_THRESHOLD = 0.7;

/** The retrieval metrics of one question, in continuous-eval's names. */
export interface RetrievalScores {
  context_precision: number;
  context_recall: number;
  context_f1: number;
  average_precision: number;
  reciprocal_rank: number;
  ndcg: number;
}

function chunkMatches(retrieved: string, groundTruth: string): boolean {
  // The package rejects empty texts (continuous-eval counts that as no match).
  if (retrieved === '' || groundTruth === '') return false;
  return (rougeL(retrieved, groundTruth)?.recall ?? 0) >= CHUNK_MATCH_THRESHOLD;
}

/** The retrieval metrics of the chunks a question retrieved, against its ground-truth passages. */
export function retrievalScores(
  retrieved: readonly string[],
  groundTruth: readonly string[],
): RetrievalScores {
  // Each pair of distinct texts is compared once (the vendor's call passes a text's characters, so the
  // same ground truth recurs); the metrics below read the matrix.
  const texts = [...new Set(groundTruth)];
  const byText = retrieved.map((chunk) => new Map(texts.map((text) => [text, chunkMatches(chunk, text)])));
  const matches = byText.map((row) => groundTruth.map((passage) => row.get(passage) === true));
  const matched = (i: number, j: number) => matches[i]?.[j] === true;

  // Precision, recall, F1: ground truth without duplicates, order ignored.
  const distinct = [...new Set(groundTruth)];
  const firstIndex = distinct.map((passage) => groundTruth.indexOf(passage));
  let relevant = 0;
  const hit = new Set<number>();
  retrieved.forEach((_, i) => {
    let any = false;
    firstIndex.forEach((j, k) => {
      if (matched(i, j)) {
        any = true;
        hit.add(k);
      }
    });
    if (any) relevant += 1;
  });
  const precision = retrieved.length > 0 ? relevant / retrieved.length : 0;
  const recall = distinct.length > 0 ? hit.size / distinct.length : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;

  // Ranked: a chunk is relevant when it matches any passage.
  let sumPrecision = 0;
  let relevantSoFar = 0;
  let reciprocalRank = 0;
  retrieved.forEach((_, i) => {
    if (!groundTruth.some((__, j) => matched(i, j))) return;
    relevantSoFar += 1;
    sumPrecision += relevantSoFar / (i + 1);
    if (reciprocalRank === 0) reciprocalRank = 1 / (i + 1);
  });
  const averagePrecision = relevantSoFar > 0 ? sumPrecision / relevantSoFar : 0;

  // NDCG: each passage (by text) gains once, at the first chunk that matches it; the ideal ranks every
  // ground-truth entry first.
  let dcg = 0;
  const gained = new Set<string>();
  retrieved.forEach((_, i) => {
    const j = groundTruth.findIndex((passage, k) => !gained.has(passage) && matched(i, k));
    if (j < 0) return;
    dcg += 1 / (Math.log(i + 2) / Math.LN2);
    gained.add(groundTruth[j] as string);
  });
  let idcg = 0;
  for (let i = 0; i < groundTruth.length; i++) idcg += 1 / (Math.log(i + 2) / Math.LN2);

  return {
    context_precision: precision,
    context_recall: recall,
    context_f1: f1,
    average_precision: averagePrecision,
    reciprocal_rank: reciprocalRank,
    // continuous-eval divides by zero on an empty ground truth; 0 says the same without a crash.
    ndcg: idcg > 0 ? dcg / idcg : 0,
  };
}
