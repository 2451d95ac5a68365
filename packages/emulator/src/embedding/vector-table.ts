import { readAsset } from '#read-asset';
import { indexKeys, type KeyIndex } from './key-index.js';

/**
 * A table of quantized vectors, as scripts/vector-table.mjs writes it: per row one float32 scale and
 * the row's components (4 bits, two a byte, low nibble first, stored as value / scale + 8; or 8 bits,
 * signed), and a key per row. The arrays are views of the file's bytes: nothing is copied per row.
 */
export interface VectorTable {
  readonly dimensions: number;
  readonly bits: 4 | 8;
  /** The row of each key, looked up in the file's key bytes (no string per row). */
  readonly rows: KeyIndex;
  /** One scale per row (little-endian float32). */
  readonly scales: DataView;
  /** The quantized rows, `rowBytes` each. */
  readonly matrix: Uint8Array;
  readonly rowBytes: number;
}

/** Thrown when a table's bytes are not a table (a truncated or foreign file). */
export class VectorTableError extends Error {
  override readonly name = 'VectorTableError';
}

const headerBytes = 20;

/** Reads the table at `url` (a file next to the module in Node, Bun and Deno; fetched in a browser). */
export async function loadVectorTable(url: URL): Promise<VectorTable> {
  return parseVectorTable(await readAsset(url), url.pathname.split('/').at(-1) ?? String(url));
}

export function parseVectorTable(bytes: Uint8Array, name: string): VectorTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (bytes.byteLength < headerBytes || magic !== 'DWVT') {
    throw new VectorTableError(`${name} is not a vector table (it does not start with DWVT)`);
  }
  const count = view.getUint32(4, true);
  const dimensions = view.getUint32(8, true);
  const bits = view.getUint32(12, true);
  const keyBytes = view.getUint32(16, true);
  if (bits !== 4 && bits !== 8) throw new VectorTableError(`${name} has ${bits}-bit components`);
  const rowBytes = bits === 4 ? Math.ceil(dimensions / 2) : dimensions;
  const matrixStart = headerBytes + count * 4;
  const keysStart = matrixStart + count * rowBytes;
  if (keysStart + keyBytes !== bytes.byteLength) {
    throw new VectorTableError(
      `${name} holds ${bytes.byteLength} bytes, not the ${keysStart + keyBytes} its header says`,
    );
  }
  const rows = indexKeys(bytes.subarray(keysStart), count);
  if (!rows) throw new VectorTableError(`${name} does not hold the ${count} keys its header says`);
  return {
    dimensions,
    bits,
    rows,
    scales: new DataView(bytes.buffer, bytes.byteOffset + headerBytes, count * 4),
    matrix: bytes.subarray(matrixStart, keysStart),
    rowBytes,
  };
}
