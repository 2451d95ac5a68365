import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateRetrieval } from '../src/retrieval/evaluate.js';
import { heldOutQuestions } from '../src/retrieval/held-out-questions.js';
import type { EvaluationQuestion } from '../src/retrieval/question.js';
import { tuningQuestions } from '../src/retrieval/tuning-questions.js';

interface Item {
  readonly title: string;
  readonly data: string;
}

const systems = {
  [seed.systems.productDocs.name]: seed.systems.productDocs.systemId,
  [seed.systems.supportKb.name]: seed.systems.supportKb.systemId,
};

describe('the retrieval evaluation', () => {
  let emulator: Emulator;
  const passages = new Map<string, Item[]>();
  beforeAll(async () => {
    emulator = await startEmulator({ apiKeys: ['test-key'] });
    // With the built-in model every passage is ranked, so a large context returns them all.
    for (const [name, id] of Object.entries(systems)) {
      const response = await fetch(
        `${emulator.url}/api/qna/v1/systems/${id}/search?query=nimbus&properties=context%3D200`,
        { headers: { authorization: 'SSWS test-key' } },
      );
      passages.set(name, ((await response.json()) as { searchResultsList: Item[] }).searchResultsList);
    }
  });
  afterAll(() => emulator.close());

  it('holds at least 120 distinct questions, in two halves that share none', () => {
    const all = [...tuningQuestions, ...heldOutQuestions].map((q) => q.question.toLowerCase());
    expect(all.length).toBeGreaterThanOrEqual(120);
    expect(new Set(all).size).toBe(all.length);
  });

  it('asks every kind of question, and about both corpora, in each half', () => {
    for (const half of [tuningQuestions, heldOutQuestions]) {
      expect(new Set(half.map((q) => q.kind))).toEqual(
        new Set(['synonym', 'indirect', 'typo', 'filter', 'no-answer']),
      );
      expect(new Set(half.map((q) => q.system)).size).toBe(2);
    }
  });

  it('marks as relevant only passages that exist, and no passage for an unanswerable question', () => {
    const check = (question: EvaluationQuestion) => {
      expect(question.relevant.length === 0).toBe(question.kind === 'no-answer');
      for (const r of question.relevant) {
        const matching = (passages.get(question.system) ?? []).filter(
          (p) => p.title.startsWith(r.title) && (!r.text || p.data.includes(r.text)),
        );
        expect(matching.length, `${question.question}: ${r.title} / ${r.text ?? ''}`).toBeGreaterThan(0);
      }
    };
    for (const question of [...tuningQuestions, ...heldOutQuestions]) check(question);
  });

  it('scores a ranking by where the relevant passages come, and unanswerable questions by the answer', async () => {
    const target = { url: emulator.url, apiKey: 'test-key', systems };
    const exact = await evaluateRetrieval(target, [
      {
        system: 'Product Documentation',
        kind: 'synonym',
        question: 'Retry-After',
        relevant: [{ title: 'API rate limits', text: 'Retry-After' }],
      },
    ]);
    expect(exact).toMatchObject({ answerable: 1, recallAt1: 1, recallAt5: 1, mrr: 1, unanswerable: 0 });
    const quality = await evaluateRetrieval(target, tuningQuestions);
    expect(quality.answerable + quality.unanswerable).toBe(tuningQuestions.length);
    expect(quality.recallAt1).toBeLessThanOrEqual(quality.recallAt5);
    expect(quality.mrr).toBeGreaterThanOrEqual(quality.recallAt1);
    expect(quality.mrr).toBeLessThanOrEqual(quality.recallAt5);
  });
});
