/**
 * Answer similarity: the cosine of the answer's and the golden answer's vectors from the sentence
 * encoder the emulator ships (`@dataworkz/emulator/sentence-encoder`; its weights are in an optional
 * dependency of the emulator: nothing is downloaded). Where that dependency is not installed the metric
 * is left out, and the evaluation says so.
 */
import { loadSentenceEncoder } from '@dataworkz/emulator/sentence-encoder';

export type AnswerSimilarity = (answer: string, groundTruth: string) => Promise<number>;

const cosine = (a: readonly number[], b: readonly number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
};

/** The encoder's similarity, or undefined where its packages are not installed (or fail to load). */
export async function loadAnswerSimilarity(): Promise<AnswerSimilarity | undefined> {
  const encoder = await loadSentenceEncoder().catch(() => undefined);
  if (!encoder) return undefined;
  return async (answer, groundTruth) => {
    const [a, b] = await encoder.embed([answer.trim(), groundTruth]);
    return a && b ? cosine(a, b) : 0;
  };
}
