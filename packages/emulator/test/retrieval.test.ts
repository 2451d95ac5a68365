import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddingError, type EmbedFunction, type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, obj, q } from './support/http.js';

const docs = seed.systems.productDocs.systemId;
const kb = seed.systems.supportKb.systemId;

type Item = { data: string; title: string; similarityScore: number; metadata: Record<string, unknown> };

async function search(emu: Emulator, systemId: string, params: Record<string, string>): Promise<Item[]> {
  const answer = await call(emu, `/api/qna/v1/systems/${systemId}/search?${q(params)}`);
  expect(answer.status).toBe(200);
  return obj(answer.json).searchResultsList as Item[];
}

async function dimensionsOf(emu: Emulator, systemId: string): Promise<unknown> {
  return obj((await call(emu, `/api/qna/v1/systems/${systemId}`)).json).dimensions;
}

describe('retrieval with the built-in word vectors', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ embed: 'word-vectors' });
  });
  afterAll(() => emu.close());

  it('ranks with the 100-d word vectors and BM25', async () => {
    expect(await dimensionsOf(emu, docs)).toBe(100);
    const items = await search(emu, kb, { query: 'how do I get my money back' });
    expect(items[0]?.data).toMatch(/refund/i);
  });
});

describe('retrieval with the built-in model', () => {
  let emu: Emulator;
  const listenerCounts = () => [
    process.listenerCount('uncaughtException'),
    process.listenerCount('unhandledRejection'),
  ];
  let listenersBefore: number[] = [];
  beforeAll(async () => {
    listenersBefore = listenerCounts();
    emu = await startEmulator();
  });
  afterAll(() => emu.close());

  it('ranks a refund passage first for a question without the word refund', async () => {
    const items = await search(emu, kb, { query: 'how do I get my money back' });
    expect(items[0]?.data).toMatch(/refund/i);
  });

  it('finds passages about what a word means, not only passages holding it', async () => {
    const items = await search(emu, docs, { query: 'policy' });
    expect(items).toHaveLength(5);
    const items2 = await search(emu, kb, { query: 'my package showed up smashed' });
    expect(items2[0]?.title).toBe('Damaged deliveries');
  });

  it('scores every result from 0 to 1, best first', async () => {
    for (const query of [
      'reset password',
      'how do I get my money back',
      'zzzz qqqq',
      'Nimbus 2.1 Nimbus 2.1',
    ]) {
      const items = await search(emu, docs, { query, properties: 'context=200' });
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        expect(item.similarityScore).toBeGreaterThanOrEqual(0);
        expect(item.similarityScore).toBeLessThanOrEqual(1);
      }
      const scores = items.map((i) => i.similarityScore);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it('ranks the passage holding an exact term or id first', async () => {
    const exact: [string, string][] = [
      ['8443', 'port 8443'],
      ['Retry-After', 'Retry-After'],
      ['SCIM', 'SCIM'],
      ['nimbus-installer', 'nimbus-installer'],
    ];
    for (const [query, text] of exact) {
      const items = await search(emu, docs, { query });
      expect(items[0]?.data).toContain(text);
    }
    const items = await search(emu, kb, { query: 'DHL' });
    expect(items[0]?.data).toContain('DHL');
  });

  it('returns nothing when the filter admits no passage', async () => {
    const items = await search(emu, docs, { query: 'reset password', filter: 'year = 1999' });
    expect(items).toEqual([]);
  });

  it('returns the best of the passages the filter admits', async () => {
    const all = await search(emu, docs, { query: 'reset password', properties: 'context=200' });
    const filtered = await search(emu, docs, {
      query: 'reset password',
      filter: "version = '2.0'",
      properties: 'context=4',
    });
    expect(filtered).toHaveLength(4);
    expect(filtered.every((i) => i.metadata.version === '2.0')).toBe(true);
    expect(filtered.map((i) => i.data)).toEqual(
      all
        .filter((i) => i.metadata.version === '2.0')
        .map((i) => i.data)
        .slice(0, 4),
    );
  });

  it('shows a paragraph several releases repeat once among the first results, its repeats after', async () => {
    const known = /^Download audit logs as CSV from Settings, Audit\.$/;
    const first = await search(emu, docs, { query: 'download audit logs' });
    expect(first[0]?.data).toMatch(known);
    expect(first.filter((i) => known.test(i.data))).toHaveLength(1);
    // Demoted, not dropped: more results hold every release's copy.
    const more = await search(emu, docs, { query: 'download audit logs', properties: 'context=20' });
    expect(more.filter((i) => known.test(i.data)).map((i) => i.metadata.version)).toHaveLength(3);
    // One release admitted, nothing repeats: its copy leads at the score it has unfiltered.
    const filtered = await search(emu, docs, {
      query: 'download audit logs',
      filter: "version = '1.2'",
    });
    const unfiltered = more.find((i) => known.test(i.data) && i.metadata.version === '1.2');
    expect(filtered[0]?.data).toMatch(known);
    expect(filtered[0]?.similarityScore).toBeGreaterThan(unfiltered?.similarityScore ?? 1);
  });

  it('shows the sentence encoder’s vector length as the system’s dimensions', async () => {
    expect(await dimensionsOf(emu, docs)).toBe(512);
  });

  it('leaves the process’s error listeners as they were after loading the encoder', async () => {
    // A fresh question waits for the encoder's weights; loading them must not add process listeners.
    await search(emu, kb, { query: 'a question asked for the first time in this process' });
    expect(listenerCounts()).toEqual(listenersBefore);
  });

  it('says it does not know, citing nothing, when no passage is about the question', async () => {
    const answer = await call(
      emu,
      `/api/qna/v1/systems/${kb}/answer?${q({ questionText: 'are you hiring software engineers', llmProviderId: seed.llms.accountDefault })}`,
    );
    const text = String(obj(answer.json).answer);
    expect(text).toContain('No answer to this question was found');
    expect(text).not.toMatch(/\[\d+\]/);
  });

  it('says it does not know when the question shares only the product’s name with the passages', async () => {
    // "Nimbus" is in most of the manual's paragraphs: sharing it is no sign of an answer.
    const answer = await call(
      emu,
      `/api/qna/v1/systems/${docs}/answer?${q({ questionText: 'is there an iPhone app for Nimbus', llmProviderId: seed.llms.productDocsSystem })}`,
    );
    const text = String(obj(answer.json).answer);
    expect(text).toContain('No answer to this question was found');
    expect(text).not.toMatch(/\[\d+\]/);
  });

  it('answers from the passages it retrieves', async () => {
    const answer = await call(
      emu,
      `/api/qna/v1/systems/${kb}/answer?${q({ questionText: 'how do I get my money back', llmProviderId: seed.llms.accountDefault })}`,
    );
    const body = obj(answer.json);
    expect((body.context as Item[])[0]?.data).toMatch(/refund/i);
  });
});

/** A small model over letter counts: texts sharing letters are near, so its ranking is checkable. */
function letterModel(calls: string[][]): EmbedFunction {
  return async (texts) => {
    calls.push(texts);
    return texts.map((text) => {
      const lower = text.toLowerCase();
      return ['a', 'e', 'i', 'o', 'u', 'y', 'z'].map((letter) => lower.split(letter).length - 1 + 0.5);
    });
  };
}

describe('retrieval with a custom model', () => {
  let emu: Emulator;
  let dir: string;
  const calls: string[][] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dwz-embed-'));
    await writeFile(
      join(dir, 'depots.txt'),
      'The northern depot opens at 05:00.\n\nThe southern depot opens at 06:00.\n',
    );
    await writeFile(
      join(dir, 'dataworkz.json'),
      JSON.stringify({ systems: [{ name: 'Fleet', systemId: 'fleet', documents: { 'depots.txt': {} } }] }),
    );
    emu = await startEmulator({ embed: letterModel(calls), data: dir });
  });
  afterAll(async () => {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('embeds every passage, the data folder’s too, and each query with it', async () => {
    const embedded = calls.flat();
    expect(embedded.some((t) => t.includes('Refunds are issued'))).toBe(true);
    expect(embedded.some((t) => t.includes('northern depot'))).toBe(true);
    const before = calls.length;
    const items = await search(emu, 'fleet', { query: 'when does the southern depot open' });
    expect(calls.slice(before)).toEqual([['when does the southern depot open']]);
    expect(items[0]?.data).toContain('southern');
  });

  it('shows its vector length as the dimensions of every system', async () => {
    expect(await dimensionsOf(emu, docs)).toBe(7);
    expect(await dimensionsOf(emu, 'fleet')).toBe(7);
  });
});

describe('a custom model that returns unusable vectors', () => {
  const cases: [string, EmbedFunction, RegExp][] = [
    [
      'too few vectors',
      async (texts) => texts.slice(1).map(() => [1, 2]),
      /returned \d+ vectors for \d+ texts/,
    ],
    [
      'vectors of different lengths',
      async (texts) => texts.map((_, i) => (i === 1 ? [1, 2, 3] : [1, 2])),
      /vector 1 has 3 dimensions where the others have 2/,
    ],
    ['a non-finite number', async (texts) => texts.map(() => [1, Number.NaN]), /holds NaN at 1/],
    [
      'no array at all',
      async () => 'vectors' as unknown as number[][],
      /must resolve to an array of vectors/,
    ],
    ['empty vectors', async (texts) => texts.map(() => []), /not a non-empty array of numbers/],
  ];

  it.each(cases)('refuses to start with %s', async (_, embed, message) => {
    const start = startEmulator({ embed });
    await expect(start).rejects.toBeInstanceOf(EmbeddingError);
    await expect(start).rejects.toThrow(message);
  });

  it('answers a search whose query vector is unusable with a 500 saying why', async () => {
    let size = 4;
    const emu = await startEmulator({
      embed: async (texts) => texts.map(() => Array.from({ length: size }, () => 1)),
    });
    try {
      size = 3;
      const answer = await call(emu, `/api/qna/v1/systems/${docs}/search?${q({ query: 'backup' })}`);
      expect(answer.status).toBe(500);
      expect(obj(answer.json)).toMatchObject({ code: 'EMBEDDING_FAILED' });
      expect(obj(answer.json).message).toMatch(/vector 0 has 3 dimensions where the others have 4/);
    } finally {
      await emu.close();
    }
  });

  it('refuses an embed option that is not a function', async () => {
    await expect(startEmulator({ embed: 'openai' as unknown as EmbedFunction })).rejects.toThrow(
      /Option embed must be a function/,
    );
  });

  it('refuses a warmEncoder option that is not a boolean', async () => {
    await expect(startEmulator({ warmEncoder: 'yes' as unknown as boolean })).rejects.toThrow(
      /Option warmEncoder must be a boolean/,
    );
  });
});

describe('lexical retrieval only', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ embed: false });
  });
  afterAll(() => emu.close());

  it('returns only passages holding the query’s terms, scored from 0 to 1, and no dimensions', async () => {
    expect(await search(emu, docs, { query: 'policy' })).toEqual([]);
    const items = await search(emu, docs, { query: 'Retry-After' });
    expect(items[0]?.data).toContain('Retry-After');
    expect(items[0]?.similarityScore).toBe(1);
    expect(items.every((i) => i.similarityScore >= 0 && i.similarityScore <= 1)).toBe(true);
    expect(await dimensionsOf(emu, docs)).toBe(0);
  });
});
