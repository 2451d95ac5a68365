/**
 * A text embedding model: one vector per text, all of the same length. The emulator ships one
 * (word vectors averaged per text); `startEmulator({ embed })` plugs in another.
 */
export type EmbedFunction = (texts: string[]) => Promise<number[][]>;

/** A model as retrieval uses it. */
export interface EmbeddingModel {
  embed: EmbedFunction;
  /**
   * Subtract the corpus's mean vector before comparing: averaged word vectors share a large common
   * direction (SIF's common component) that otherwise makes every passage look alike.
   */
  centre: boolean;
  /**
   * The texts a passage is embedded as; their unit vectors are averaged into the passage's vector.
   * Default: the title, then the paragraph, as one text.
   */
  passageTexts?: (title: string, text: string) => string[];
  /**
   * Begins loading what embedding a question needs, without waiting: called as a search starts, so the
   * load runs alongside the passages' indexing instead of after it.
   */
  prepare?: () => void;
}

/**
 * How a system's passages are ranked: the weighted cosine similarities of one or more models plus the
 * weighted BM25 score (the weights sum to 1), and the score below which an answer cites nothing.
 */
export interface Ranking {
  models: { model: EmbeddingModel; weight: number }[];
  lexicalWeight: number;
  /** An answer whose best passage scores below this says nothing was found. */
  answerFloor: number;
  /**
   * Correct the question's misspelt words (those neither the corpus nor the built-in English word list
   * holds) before the models embed it; BM25 matches them fuzzily either way.
   */
  correctSpelling?: boolean;
}

/** A custom embedding model returned something retrieval cannot use. */
export class EmbeddingError extends Error {
  override readonly name = 'EmbeddingError';
}

/**
 * Checks what `embed` returned for `texts`: one array per text, every one of the same non-zero length
 * (`dimensions`, when known) and finite numbers only.
 */
export function checkEmbeddings(vectors: unknown, count: number, dimensions?: number): number[][] {
  if (!Array.isArray(vectors)) {
    throw new EmbeddingError(
      `The embed function must resolve to an array of vectors, got ${describe(vectors)}`,
    );
  }
  if (vectors.length !== count) {
    throw new EmbeddingError(
      `The embed function returned ${vectors.length} vectors for ${count} texts; it must return one per text`,
    );
  }
  let size = dimensions;
  vectors.forEach((vector: unknown, i) => {
    if (!Array.isArray(vector) || vector.length === 0) {
      throw new EmbeddingError(
        `The embed function's vector ${i} is ${describe(vector)}, not a non-empty array of numbers`,
      );
    }
    size ??= vector.length;
    if (vector.length !== size) {
      throw new EmbeddingError(
        `The embed function's vector ${i} has ${vector.length} dimensions where the others have ${size}`,
      );
    }
    const bad = vector.findIndex((x: unknown) => typeof x !== 'number' || !Number.isFinite(x));
    if (bad >= 0) {
      throw new EmbeddingError(
        `The embed function's vector ${i} holds ${describe(vector[bad])} at ${bad}; only finite numbers work`,
      );
    }
  });
  return vectors as number[][];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'number') return String(value);
  return `a ${typeof value}`;
}
