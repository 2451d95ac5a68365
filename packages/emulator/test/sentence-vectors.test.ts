import { describe, expect, it } from 'vitest';
import { passageTexts, textKey } from '../src/embedding/sentence-encoder.js';
import * as table from '../src/generated/sentence-vectors.js';
import { seededDataset } from '../src/seed.js';

describe('the precomputed sentence vectors', () => {
  it('hold every text the seeded passages are embedded as, and nothing else', () => {
    const wanted = new Set<string>();
    for (const system of seededDataset({}).systems) {
      for (const document of system.documents) {
        for (const paragraph of document.paragraphs) {
          for (const text of passageTexts(document.title, paragraph)) wanted.add(textKey(text));
        }
      }
    }
    // A changed passage needs `node scripts/derive-sentence-vectors.mjs` (after a build).
    expect(new Set(table.keys.split(' '))).toEqual(wanted);
    expect(Buffer.from(table.vectors, 'base64').length).toBe(wanted.size * table.dimensions);
    expect(Buffer.from(table.scales, 'base64').length).toBe(wanted.size * 4);
  });
});
