import { normaliseTerm } from '../qna/terms.js';
import type { EmbeddingModel } from './model.js';
import { loadWordVectors, type WordVectors } from './word-vectors.js';

/**
 * SIF weighting (Arora et al., 2017): a word counts a / (a + p(word)), so frequent words barely move the
 * average. The table holds words in frequency order; p comes from the rank by Zipf's law over a
 * 400,000-word vocabulary (harmonic number ≈ 13.5). `a` is lower than the paper's 1e-3: questions are
 * short and their common words (`get`, `back`) drowned the one that carries the meaning (`money`);
 * 3e-5 gave the best recall on the evaluation in bench/.
 */
const sifA = 3e-5;
const harmonic = 13.5;
const rankWeight = (row: number) => sifA / (sifA + 1 / ((row + 1) * harmonic));

/** Endings tried, in order, for a word the table lacks: `resetting` → `reset`, `retries` → `retry`. */
const endings: [string, string][] = [
  ['ies', 'y'],
  ['es', ''],
  ['s', ''],
  ['ing', ''],
  ['ing', 'e'],
  ['ed', ''],
  ['ed', 'e'],
  ['ly', ''],
];

function rowOf(table: WordVectors, word: string): number | undefined {
  const exact = table.row(word);
  if (exact !== undefined) return exact;
  for (const [ending, replacement] of endings) {
    if (word.length <= ending.length + 2 || !word.endsWith(ending)) continue;
    const stem = word.slice(0, -ending.length) + replacement;
    const row = table.row(stem) ?? (stem.at(-1) === stem.at(-2) ? table.row(stem.slice(0, -1)) : undefined);
    if (row !== undefined) return row;
  }
  return undefined;
}

/**
 * A word the table does not know (a product name, an id, a number) gets a pseudo-random vector derived
 * from its letters, with the norm of a typical word: texts sharing it move toward each other, and it is
 * weighted as a rare word.
 */
function addUnknown(word: string, dimensions: number, weight: number, into: Float64Array): void {
  // FNV-1a seeds xorshift32.
  let state = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) state = Math.imul(state ^ word.charCodeAt(i), 0x01000193);
  const scale = (weight * 5) / Math.sqrt(dimensions / 3);
  for (let c = 0; c < dimensions; c++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    into[c] = (into[c] ?? 0) + ((state >>> 0) / 2 ** 32 - 0.5) * 2 * scale;
  }
}

/** Numbers (versions, counts, ports) say little about a text's subject; the lexical half matches them exactly. */
const numberWeight = 0.2;

const wordsOf = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u);

function embedText(table: WordVectors, text: string): number[] {
  const sum = new Float64Array(table.dimensions);
  for (const word of wordsOf(text)) {
    if (!word || normaliseTerm(word) === null) continue;
    const row = rowOf(table, word);
    if (row === undefined) addUnknown(word, table.dimensions, /^\p{N}+$/u.test(word) ? numberWeight : 1, sum);
    else table.addRow(row, rankWeight(row), sum);
  }
  let norm = 0;
  for (let c = 0; c < sum.length; c++) norm += (sum[c] as number) ** 2;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const vector = new Array<number>(sum.length);
  for (let c = 0; c < sum.length; c++) vector[c] = (sum[c] as number) * scale;
  return vector;
}

/** The built-in model: 100-d GloVe-derived word vectors, SIF-weighted average per text, unit length. */
export const wordVectorModel: EmbeddingModel = {
  embed: async (texts) => {
    const table = await loadWordVectors();
    return texts.map((text) => embedText(table, text));
  },
  centre: true,
};
