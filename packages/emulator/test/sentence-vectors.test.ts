import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadVectorTable, parseVectorTable, VectorTableError } from '../src/embedding/vector-table.js';
import { passageTexts, textKey } from '../src/node/sentence-encoder.js';
import { seededDataset } from '../src/seed.js';

const tableUrl = (name: string) => new URL(`../src/generated/${name}`, import.meta.url);

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

  it('that is truncated or foreign is refused with a typed error naming it', async () => {
    const bytes = new Uint8Array(await readFile(tableUrl('sentence-vectors.bin')));
    expect(() => parseVectorTable(bytes.subarray(0, bytes.length - 1), 'cut.bin')).toThrow(VectorTableError);
    expect(() => parseVectorTable(bytes.subarray(0, bytes.length - 1), 'cut.bin')).toThrow(/cut\.bin holds/);
    expect(() => parseVectorTable(new TextEncoder().encode('<!doctype html>'), 'page.bin')).toThrow(
      /page\.bin is not a vector table/,
    );
  });
});
