import { loadVectorTable, type VectorTable } from './vector-table.js';

/** The built-in word vectors, read once from the generated table and shared by every system. */
export interface WordVectors {
  readonly dimensions: number;
  /** The row of `word`, or undefined when the table lacks it. Rows are in frequency order. */
  row(word: string): number | undefined;
  /** Adds `weight` times the row's vector to `into`. */
  addRow(row: number, weight: number, into: Float64Array): void;
  readonly size: number;
}

let loading: Promise<WordVectors> | undefined;

/**
 * Loads the table on first use (a search, or an index built): src/generated/word-vectors.bin, 5 MB read
 * straight into typed arrays, stays out of start-up and of every process that never searches.
 */
export function loadWordVectors(): Promise<WordVectors> {
  loading ??= loadVectorTable(new URL('../generated/word-vectors.bin', import.meta.url)).then(wordVectors);
  return loading;
}

function wordVectors(table: VectorTable): WordVectors {
  const { dimensions, rows, scales, matrix, rowBytes } = table;
  return {
    dimensions,
    size: rows.size,
    row: (word) => rows.get(word),
    addRow(row, weight, into) {
      const scale = scales.getFloat32(row * 4, true) * weight;
      const start = row * rowBytes;
      // Two components a byte: the low nibble, then the high one.
      for (let c = 0; c < dimensions; c += 2) {
        const byte = matrix[start + (c >> 1)] as number;
        into[c] = (into[c] as number) + ((byte & 15) - 8) * scale;
        if (c + 1 < dimensions) into[c + 1] = (into[c + 1] as number) + ((byte >> 4) - 8) * scale;
      }
    },
  };
}
