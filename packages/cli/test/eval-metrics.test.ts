import {
  answerScores,
  bleu,
  ListLiteralError,
  parsePythonList,
  probeChunks,
  retrievalScores,
  rougeL,
} from '@dataworkz/cli/eval';
import { describe, expect, it } from 'vitest';

// Expected values are worked by hand from continuous-eval's definitions (and the `rouge` and NLTK code
// it calls); each comment shows the arithmetic.

describe('ROUGE-L (summary level, as the rouge package)', () => {
  it('counts the distinct words of the LCS against each side', () => {
    // ref "the cat was on the mat": distinct {the,cat,was,on,mat} m=5; cand distinct {the,cat,sat,on,mat} n=5.
    // LCS "the cat on the mat" -> words {the,cat,on,mat} = 4: r = p = 4/5, f = 2*.64/(1.6+1e-8).
    const score = rougeL('the cat sat on the mat', 'the cat was on the mat');
    expect(score?.recall).toBeCloseTo(0.8, 12);
    expect(score?.precision).toBeCloseTo(0.8, 12);
    expect(score?.f1).toBeCloseTo(0.8, 6);
  });

  it('takes the union of the LCS over the candidate sentences (the ROUGE paper example)', () => {
    // r = w1..w5; c1 = "w1 w2 w6 w7 w8" gives {w1,w2}, c2 = "w1 w3 w8 w9 w5" gives {w1,w3,w5}:
    // union 4; m = 5, n = 8 distinct candidate words: r = 0.8, p = 0.5, f = 0.8/1.3 = 0.6153846.
    const score = rougeL('w1 w2 w6 w7 w8. w1 w3 w8 w9 w5', 'w1 w2 w3 w4 w5');
    expect(score?.recall).toBeCloseTo(0.8, 12);
    expect(score?.precision).toBeCloseTo(0.5, 12);
    expect(score?.f1).toBeCloseTo(0.6153846, 6);
  });

  it('keeps case, as the package does', () => {
    // {cat} in common of 2 distinct words each side.
    expect(rougeL('The cat', 'the cat')?.recall).toBe(0.5);
  });

  it('has no score for a text without a sentence', () => {
    expect(rougeL('...', 'a b')).toBeUndefined();
  });
});

describe('retrieval metrics (RougeChunkMatch, threshold 0.7)', () => {
  const g1 = 'Refunds are issued within 5 business days after the item arrives';
  const g2 = 'Gold members may return hardware within 60 days of delivery';
  const x = 'Orders ship within one business day';
  const y = 'Tracking updates can take up to 24 hours';

  it('matches a chunk holding at least 70% of a passage’s distinct words', () => {
    // 10 distinct words; 7 of them in order give recall 0.7 (a match), 6 give 0.6 (none).
    const passage = 'a b c d e f g h i j';
    expect(retrievalScores(['a b c d e f g z'], [passage]).context_recall).toBe(1);
    expect(retrievalScores(['a b c d e f z'], [passage]).context_recall).toBe(0);
  });

  it('scores precision, recall, F1, AP, RR and NDCG', () => {
    // retrieved [x, g1, y, g2]: relevant at ranks 2 and 4.
    // precision 2/4, recall 2/2, F1 = 2*.5*1/1.5 = 0.6667; AP = (1/2 + 2/4)/2 = 0.5; RR = 1/2;
    // DCG = 1/log2(3) + 1/log2(5) = 1.0616063, IDCG = 1 + 1/log2(3) = 1.6309298: NDCG = 0.6509209.
    const scores = retrievalScores([x, g1, y, g2], [g1, g2]);
    expect(scores.context_precision).toBe(0.5);
    expect(scores.context_recall).toBe(1);
    expect(scores.context_f1).toBeCloseTo(0.6666667, 6);
    expect(scores.average_precision).toBe(0.5);
    expect(scores.reciprocal_rank).toBe(0.5);
    expect(scores.ndcg).toBeCloseTo(0.6509209, 6);
  });

  it('counts a repeated passage once for recall and twice for the ideal DCG', () => {
    // Recall over distinct passages: 1/1. NDCG: DCG 1, IDCG = 1 + 1/log2(3): 0.6131472.
    const scores = retrievalScores([g1], [g1, g1]);
    expect(scores.context_recall).toBe(1);
    expect(scores.ndcg).toBeCloseTo(0.6131472, 6);
  });

  it('scores nothing retrieved as 0 throughout, and an empty ground truth without dividing by zero', () => {
    expect(Object.values(retrievalScores([], [g1])).every((value) => value === 0)).toBe(true);
    expect(retrievalScores([g1], []).ndcg).toBe(0);
  });
});

describe('BLEU (NLTK sentence_bleu on strings: character n-grams, no smoothing)', () => {
  it('is 1 for the same text', () => {
    expect(bleu('abcd', 'abcd')).toBe(1);
  });

  it('multiplies the clipped n-gram precisions', () => {
    // "abcde" vs "abcdf": 1-grams 4/5, 2-grams 3/4, 3-grams 2/3, 4-grams 1/2; equal lengths, no penalty:
    // (0.8 * 0.75 * 0.6667 * 0.5)^(1/4) = 0.2^(1/4) = 0.6687403.
    expect(bleu('abcde', 'abcdf')).toBeCloseTo(0.6687403, 6);
  });

  it('gives an order without a match the smallest float, not zero (method0)', () => {
    // "abc" has no 4-gram: p4 = 2.2e-308, so BLEU is about 1e-77 (times the penalty e^(1-4/3)).
    const score = bleu('abc', 'abcd');
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThan(1e-70);
  });

  it('is 0 without a character in common', () => {
    expect(bleu('xyz', 'abc')).toBe(0);
  });
});

describe('answer metrics', () => {
  it('scores token overlap after stop words, punctuation and numbers', () => {
    // "the refund takes 5 business days" -> [refund, takes, 5, business, days];
    // "refunds take five business days" -> [refunds, take, five, business, days]; common {business, days}:
    // precision = recall = 2/5.
    const scores = answerScores('The refund takes 5 business days.', 'Refunds take five business days', []);
    expect(scores.token_overlap_precision).toBe(0.4);
    expect(scores.token_overlap_recall).toBe(0.4);
    expect(scores.token_overlap_f1).toBeCloseTo(0.4, 12);
    // "$1,577.00" and "1577.00" both lose their punctuation: the number 157700 either way.
    expect(answerScores('$1,577.00', '1577.00', []).token_overlap_precision).toBe(1);
  });

  it('scores faithfulness sentence by sentence against the joined context', () => {
    // "Refunds take 5 days." is all in the context (ROUGE-L precision 4/4, token precision 4/4);
    // "The moon is cheese." shares nothing: 1 of 2 sentences faithful by either measure.
    const scores = answerScores('Refunds take 5 days. The moon is cheese.', '', [
      'Refunds take 5 days to arrive.',
    ]);
    expect(scores.rouge_faithfulness).toBe(0.5);
    expect(scores.token_overlap_faithfulness).toBe(0.5);
  });

  it('scores an empty answer as 0 rather than failing', () => {
    const scores = answerScores('', 'Something', ['context']);
    expect(scores.rouge_l_f1).toBe(0);
    expect(scores.rouge_faithfulness).toBe(0);
  });
});

describe('golden-file passages and the probe', () => {
  it('reads Python list literals in both quote styles, with escapes', () => {
    expect(parsePythonList(`['a', "b's", 'c\\'d', 'line\\nbreak', ]`)).toEqual([
      'a',
      "b's",
      "c'd",
      'line\nbreak',
    ]);
    expect(parsePythonList(`['ab' "cd"]`)).toEqual(['abcd']);
    expect(() => parsePythonList(`['open`)).toThrow(ListLiteralError);
    expect(() => parsePythonList('[1, 2]')).toThrow(ListLiteralError);
  });

  it('takes the chunks from the MERGE_NEIGHBOURING_CONTEXT node wherever it sits', () => {
    const probe = {
      id: 'pipeline',
      children: [
        { id: 'RETRIEVE', data: {} },
        {
          id: 'x',
          ref: 'MERGE_NEIGHBOURING_CONTEXT',
          data: { Input: [{ Content: 'one' }, { Content: 'two' }] },
        },
      ],
    };
    expect(probeChunks(probe)).toEqual(['one', 'two']);
    expect(probeChunks({ id: 'pipeline', children: [] })).toBeUndefined();
  });
});
