import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadVectorTable, parseVectorTable, VectorTableError } from '../src/embedding/vector-table.js';
import { passageTexts, textKey } from '../src/node/sentence-encoder.js';
import { seededDataset } from '../src/seed.js';

const tableUrl = (name: string) => new URL(`../src/generated/${name}`, import.meta.url);

/** A table as scripts/vector-table.mjs writes it: 2 dimensions, 8 bits, each row [1, -1] at scale 0.5. */
function tableBytes(keys: string[]): Uint8Array {
  const keyText = new TextEncoder().encode(keys.join(' '));
  const bytes = new Uint8Array(20 + keys.length * 4 + keys.length * 2 + keyText.length);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('DWVT'));
  view.setUint32(4, keys.length, true);
  view.setUint32(8, 2, true);
  view.setUint32(12, 8, true);
  view.setUint32(16, keyText.length, true);
  keys.forEach((_, row) => {
    view.setFloat32(20 + row * 4, 0.5, true);
    view.setInt8(20 + keys.length * 4 + row * 2, 1);
    view.setInt8(20 + keys.length * 4 + row * 2 + 1, -1);
  });
  bytes.set(keyText, bytes.length - keyText.length);
  return bytes;
}

describe('the precomputed sentence vectors', () => {
  it('hold every text the seeded passages are embedded as, and nothing else', async () => {
    const wanted = new Set<string>();
    for (const system of seededDataset({}).systems) {
      for (const document of system.documents) {
        for (const paragraph of document.paragraphs) {
          for (const text of passageTexts(document.title, paragraph)) wanted.add(textKey(text));
        }
      }
    }
    // A changed passage needs `node scripts/derive-sentence-vectors.mjs` (after a build).
    const table = await loadVectorTable(tableUrl('sentence-vectors.bin'));
    expect(new Set(table.rows.keys())).toEqual(wanted);
    expect(table).toMatchObject({ dimensions: 512, bits: 8, rowBytes: 512 });
    expect(table.matrix.byteLength).toBe(wanted.size * 512);
    expect(table.scales.byteLength).toBe(wanted.size * 4);
  });
});

describe('a vector table file', () => {
  it('is read as views of its bytes: the word vectors, 80,000 rows of 100 4-bit components', async () => {
    const table = await loadVectorTable(tableUrl('word-vectors.bin'));
    expect(table).toMatchObject({ dimensions: 100, bits: 4, rowBytes: 50 });
    expect(table.rows.size).toBe(80_000);
    expect(table.rows.get('the')).toBe(0);
    expect(table.matrix.buffer).toBe(table.scales.buffer);
  });

  it('finds every key at its row, as the key text read in order says, and no other key', async () => {
    const bytes = new Uint8Array(await readFile(tableUrl('word-vectors.bin')));
    const table = parseVectorTable(bytes, 'word-vectors.bin');
    const keyBytes = new DataView(bytes.buffer, bytes.byteOffset).getUint32(16, true);
    const keys = new TextDecoder().decode(bytes.subarray(bytes.length - keyBytes)).split(' ');
    expect([...table.rows.keys()]).toEqual(keys);
    keys.forEach((key, row) => {
      if (table.rows.get(key) !== row) expect.fail(`${key} is at row ${table.rows.get(key)}, not ${row}`);
    });
    for (const absent of ['', ' ', 'the ', 'zzzzqqqx', 'naïveté-not-a-word', `${keys[5]}${keys[6]}`]) {
      expect(table.rows.get(absent)).toBeUndefined();
    }
  });

  it('reads keys that are not ASCII, and keeps the last row of a repeated key', () => {
    const table = parseVectorTable(tableBytes(['café', 'naïve', '東京', 'café']), 'tiny.bin');
    expect([...table.rows.keys()]).toEqual(['café', 'naïve', '東京', 'café']);
    expect(table.rows.get('café')).toBe(3);
    expect(table.rows.get('naïve')).toBe(1);
    expect(table.rows.get('東京')).toBe(2);
    expect(table.rows.get('cafe')).toBeUndefined();
  });

  it('whose key text holds more or fewer keys than its header says is refused', () => {
    const bytes = tableBytes(['one', 'two', 'three']);
    // The same bytes, the header claiming two rows: the key text no longer starts where it did.
    new DataView(bytes.buffer).setUint32(4, 2, true);
    expect(() => parseVectorTable(bytes, 'short.bin')).toThrow(VectorTableError);
    const joined = tableBytes(['one', 'two three']);
    expect(() => parseVectorTable(joined, 'joined.bin')).toThrow(/joined\.bin does not hold the 2 keys/);
  });

  it('that is truncated or foreign is refused with a typed error naming it', async () => {
    const bytes = new Uint8Array(await readFile(tableUrl('sentence-vectors.bin')));
    expect(() => parseVectorTable(bytes.subarray(0, bytes.length - 1), 'cut.bin')).toThrow(VectorTableError);
    expect(() => parseVectorTable(bytes.subarray(0, bytes.length - 1), 'cut.bin')).toThrow(/cut\.bin holds/);
    expect(() => parseVectorTable(new TextEncoder().encode('<!doctype html>'), 'page.bin')).toThrow(
      /page\.bin is not a vector table/,
    );
  });
});
