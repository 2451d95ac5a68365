import { bleu } from './bleu.js';
import { sentences } from './punkt.js';
import { rougeL } from './rouge.js';
import { type Token, tokenize } from './tokenize.js';

/**
 * continuous-eval's `DeterministicAnswerCorrectness` (the answer against the ground-truth answer) and
 * `DeterministicFaithfulness` (each sentence of the answer against the retrieved context).
 */

export interface AnswerScores {
  rouge_l_recall: number;
  rouge_l_precision: number;
  rouge_l_f1: number;
  token_overlap_recall: number;
  token_overlap_precision: number;
  token_overlap_f1: number;
  bleu_score: number;
  rouge_faithfulness: number;
  token_overlap_faithfulness: number;
  bleu_faithfulness: number;
}

/** continuous-eval's `TokenOverlap`, its formulas as written (the same operations give the same floats). */
function tokenOverlap(prediction: string, reference: string | readonly Token[]) {
  const predicted = tokenize(prediction);
  const expected = typeof reference === 'string' ? tokenize(reference) : reference;
  const expectedSet = new Set(expected);
  const common = new Set(predicted.filter((token) => expectedSet.has(token))).size;
  const precision = predicted.length > 0 ? common / predicted.length : 0;
  const recall = expected.length > 0 ? common / expected.length : 0;
  const f1 = precision + recall > 0 ? 2 * ((precision * recall) / (precision + recall)) : 0;
  return { precision, recall, f1 };
}

const PUNCTUATION_ONLY = /^[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]*$/;

/** ROUGE-L as continuous-eval's `RougeScore`: 0 for an empty or punctuation-only prediction. */
function rougeScore(prediction: string, reference: string) {
  if (PUNCTUATION_ONLY.test(prediction)) return { recall: 0, precision: 0, f1: 0 };
  return rougeL(prediction, reference) ?? { recall: 0, precision: 0, f1: 0 };
}

const FAITHFUL_ROUGE_PRECISION = 0.5;
const FAITHFUL_TOKEN_PRECISION = 0.5;

/** The answer metrics of one answer: against the ground truth, and its faithfulness to the context. */
export function answerScores(
  answer: string,
  groundTruthAnswer: string,
  context: readonly string[],
): AnswerScores {
  const overlap = tokenOverlap(answer, groundTruthAnswer);
  const rouge = rougeScore(answer, groundTruthAnswer);
  const joined = context.join('\n');
  const parts = sentences(answer);
  let rougeFaithful = 0;
  let tokenFaithful = 0;
  let bleuSum = 0;
  // The context's tokens once, not once per sentence.
  const contextTokens = parts.length > 0 ? tokenize(joined) : [];
  for (const sentence of parts) {
    if (rougeScore(sentence, joined).precision >= FAITHFUL_ROUGE_PRECISION) rougeFaithful += 1;
    if (tokenOverlap(sentence, contextTokens).precision >= FAITHFUL_TOKEN_PRECISION) tokenFaithful += 1;
    bleuSum += bleu(sentence, joined);
  }
  // continuous-eval divides by the sentence count; an empty answer is faithful to nothing.
  const share = (count: number) => (parts.length > 0 ? count / parts.length : 0);
  return {
    rouge_l_recall: rouge.recall,
    rouge_l_precision: rouge.precision,
    rouge_l_f1: rouge.f1,
    token_overlap_recall: overlap.recall,
    token_overlap_precision: overlap.precision,
    token_overlap_f1: overlap.f1,
    bleu_score: bleu(answer, groundTruthAnswer),
    rouge_faithfulness: share(rougeFaithful),
    token_overlap_faithfulness: share(tokenFaithful),
    bleu_faithfulness: share(bleuSum),
  };
}
