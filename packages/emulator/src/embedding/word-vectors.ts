/** The built-in word vectors, decoded once from the generated module and shared by every system. */
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
 * Loads the table on first use. A dynamic import keeps its 6 MB out of start-up for users who plug in
 * their own model, and base64 decoding with `atob` works in every runtime (no file system).
 */
export function loadWordVectors(): Promise<WordVectors> {
  loading ??= import('../generated/word-vectors.js').then((table) =>
    decode(table.words, table.scales, table.vectors, table.dimensions),
  );
  return loading;
}

function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function decode(wordList: string, scaleText: string, matrixText: string, dimensions: number): WordVectors {
  const words = wordList.split(' ');
  const rows = new Map<string, number>();
  words.forEach((word, i) => {
    rows.set(word, i);
  });
  const scaleBytes = bytesOf(scaleText);
  const scales = new DataView(scaleBytes.buffer, scaleBytes.byteOffset, scaleBytes.byteLength);
  const matrix = bytesOf(matrixText);
  const rowBytes = Math.ceil(dimensions / 2);
  return {
    dimensions,
    size: words.length,
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
