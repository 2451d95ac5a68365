import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadSentenceEncoder } from '@dataworkz/emulator/sentence-encoder';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** The probe's steps in a fresh process of the built package (whether the encoder was loaded at each). */
async function probe(mode: 'lazy' | 'warm'): Promise<Record<string, unknown>[]> {
  const { stdout } = await run(process.execPath, ['test/support/encoder-probe/main.mjs', mode], {
    cwd: packageDir,
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>[];
}

const cosine = (a: readonly number[], b: readonly number[]) => {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot / Math.sqrt(a.reduce((s, x) => s + x * x, 0) * b.reduce((s, x) => s + x * x, 0));
};

describe('the sentence encoder, loaded on demand', () => {
  it('is not loaded by a start, a list and a system’s details; the first question loads it', async () => {
    expect(await probe('lazy')).toEqual([
      { step: 'list', encoderLoaded: false },
      { step: 'details', encoderLoaded: false, dimensions: 512 },
      { step: 'search', encoderLoaded: true, first: expect.stringMatching(/refund/i) },
    ]);
  });

  it('is loaded while starting, before any question, with warmEncoder', async () => {
    const steps = await probe('warm');
    expect(steps.at(-2)).toEqual({ step: 'warmed', encoderLoaded: true });
    expect(steps.at(-1)).toMatchObject({ step: 'search', first: expect.stringMatching(/refund/i) });
  });

  it('is shared at @dataworkz/emulator/sentence-encoder, whose vectors put paraphrases together', async () => {
    const encoder = await loadSentenceEncoder();
    if (!encoder) throw new Error('the optional encoder packages are installed in this workspace');
    const [refund, moneyBack, weather] = await encoder.embed([
      'How do I get a refund?',
      'I want my money back',
      'It will rain in Lisbon tomorrow',
    ]);
    expect(refund).toHaveLength(512);
    expect(cosine(refund ?? [], moneyBack ?? [])).toBeGreaterThan(cosine(refund ?? [], weather ?? []));
    expect(await loadSentenceEncoder()).toBe(encoder);
  });
});
