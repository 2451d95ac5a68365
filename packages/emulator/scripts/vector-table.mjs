// Writes a vector table as the emulator reads it (src/embedding/vector-table.ts): a 20-byte header
// ("DWVT", then rows, dimensions, bits per component and the key text's byte length, as little-endian
// uint32), one float32 scale per row, the quantized rows, and the keys as UTF-8 text joined by spaces.
import { writeFileSync } from 'node:fs';

/**
 * `scales`: a Float32Array (one per row); `matrix`: the rows' bytes (4 bits: two components a byte, the
 * low nibble first, each value + 8; 8 bits: int8); `keys`: one string per row, without spaces.
 */
export function writeVectorTable(target, { dimensions, bits, scales, matrix, keys }) {
  const keyBytes = Buffer.from(keys.join(' '), 'utf8');
  const header = Buffer.alloc(20);
  header.write('DWVT', 0, 'latin1');
  header.writeUInt32LE(keys.length, 4);
  header.writeUInt32LE(dimensions, 8);
  header.writeUInt32LE(bits, 12);
  header.writeUInt32LE(keyBytes.length, 16);
  const scaleBytes = Buffer.alloc(scales.length * 4);
  scales.forEach((scale, row) => {
    scaleBytes.writeFloatLE(scale, row * 4);
  });
  const rows = Buffer.from(matrix.buffer, matrix.byteOffset, matrix.byteLength);
  writeFileSync(target, Buffer.concat([header, scaleBytes, rows, keyBytes]));
}
