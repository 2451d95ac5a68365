import { createHash } from 'node:crypto';
import type { EmbeddingModel } from '../embedding/model.js';
import { loadVectorTable } from '../embedding/vector-table.js';
import { loadSentenceEncoder, sentenceEncoderInstalled } from './encoder-loader.js';

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

/** The seeded passages' vectors, by text key; each row is decoded when first asked for. */
interface Precomputed {
  vector(key: string): number[] | undefined;
}

async function loadPrecomputed(): Promise<Precomputed> {
  const { dimensions, rows, scales, matrix } = await loadVectorTable(
    new URL('../generated/sentence-vectors.bin', import.meta.url),
  );
  return {
    vector(key) {
      const row = rows.get(key);
      if (row === undefined) return undefined;
      const scale = scales.getFloat32(row * 4, true);
      const start = row * dimensions;
      const vector = new Array<number>(dimensions);
      // Signed bytes: the table stores each component as int8.
      for (let c = 0; c < dimensions; c++) vector[c] = (((matrix[start + c] as number) << 24) >> 24) * scale;
      return vector;
    },
  };
}

/**
 * The sentence encoder as an embedding model, or undefined when its packages are not installed. The
 * seeded passages' vectors come from src/generated/sentence-vectors.bin (made by
 * scripts/derive-sentence-vectors.mjs with this encoder), read on the first call; other texts
 * (questions, `--data` folders) are embedded by the encoder, whose weights load on the first such text,
 * or at once with `warm` (the first answer then waits for none of it).
 */
export async function sentenceEncoderModel({ warm = false } = {}): Promise<EmbeddingModel | undefined> {
  if (!(await sentenceEncoderInstalled())) return undefined;
  let precomputed: Promise<Precomputed> | undefined;
  const load = async () => {
    const loaded = await loadSentenceEncoder();
    if (!loaded) throw new Error('The sentence encoder packages are installed but could not be loaded');
    return loaded;
  };
  const prepare = () => {
    load().catch(() => undefined);
  };
  if (warm) prepare();
  const questions = new Map<string, number[]>();
  return {
    centre: false,
    passageTexts,
    prepare,
    embed: async (texts) => {
      precomputed ??= loadPrecomputed();
      const table = await precomputed;
      const vectors = texts.map((text) => table.vector(textKey(text)) ?? questions.get(text));
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
