import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerScores } from '../src/eval/answer-metrics.js';
import { sentences } from '../src/eval/punkt.js';
import { retrievalScores } from '../src/eval/retrieval-metrics.js';
import { tokenize } from '../src/eval/tokenize.js';

// The cases and continuous-eval's own results for them, made once by fixtures/eval/parity/generate.py
// (its versions in VERSIONS.md beside it): every metric must agree to 1e-9, sentences and tokens exactly.

interface Case {
  id: string;
  answer: string;
  gt_answer: string;
  gt_context: string[];
  chunks: string[];
  context: string[];
  /** The golden cell the vendor's harness passes as the ground-truth context: a string, read per character. */
  vendor_gt_raw?: string;
}
type Result = Record<string, number>;
interface Expected {
  id: string;
  sentences: Record<string, string[]>;
  tokens: Record<string, string[]>;
  precision_recall_f1: Result;
  ranked: Result;
  correctness: Result;
  faithfulness: Result;
}

const read = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`fixtures/eval/parity/${name}`, import.meta.url), 'utf8')).cases;
const cases = read<Case[]>('cases.json');
const expected = new Map(read<Expected[]>('expected.json').map((entry) => [entry.id, entry]));

function expectClose(ours: Record<string, number>, reference: Result) {
  for (const [metric, value] of Object.entries(reference)) {
    expect(Math.abs((ours[metric] as number) - value), metric).toBeLessThanOrEqual(1e-9);
  }
}

describe.each(cases.map((item) => [item.id, item] as const))('as continuous-eval: %s', (_, item) => {
  const reference = expected.get(item.id) as Expected;

  it('splits sentences and tokens as NLTK and continuous-eval do', () => {
    for (const [text, split] of Object.entries(reference.sentences))
      expect(sentences(text), JSON.stringify(text)).toEqual(split);
    for (const [text, tokens] of Object.entries(reference.tokens))
      expect(tokenize(text), JSON.stringify(text)).toEqual(tokens);
  });

  it('scores every metric as continuous-eval does, or 0 where it raises', () => {
    const groundTruth = item.vendor_gt_raw !== undefined ? Array.from(item.vendor_gt_raw) : item.gt_context;
    const retrieval = retrievalScores(item.chunks, groundTruth) as unknown as Record<string, number>;
    const answer = answerScores(item.answer, item.gt_answer, item.context) as unknown as Record<
      string,
      number
    >;
    const groups: [Result, Record<string, number>, string[]][] = [
      [reference.precision_recall_f1, retrieval, ['context_precision', 'context_recall', 'context_f1']],
      [reference.ranked, retrieval, ['average_precision', 'reciprocal_rank', 'ndcg']],
      [
        reference.correctness,
        answer,
        [
          'rouge_l_recall',
          'rouge_l_precision',
          'rouge_l_f1',
          'token_overlap_recall',
          'token_overlap_precision',
          'token_overlap_f1',
          'bleu_score',
        ],
      ],
      [
        reference.faithfulness,
        answer,
        ['rouge_faithfulness', 'token_overlap_faithfulness', 'bleu_faithfulness'],
      ],
    ];
    for (const [result, ours, metrics] of groups) {
      const raises = result.raises as unknown as string | undefined;
      if (raises === undefined) expectClose(ours, result);
      // The `rouge` package recurses once per word of an unpunctuated sentence: past Python's limit it
      // raises where our iterative walk still scores (the guide says so).
      else if (raises === 'RecursionError')
        for (const metric of metrics) expect(ours[metric]).toBeGreaterThanOrEqual(0);
      // An empty reference, no chunks, no sentence: continuous-eval divides by zero or refuses; 0 here.
      else for (const metric of metrics) expect(ours[metric], metric).toBe(0);
    }
  });
});
