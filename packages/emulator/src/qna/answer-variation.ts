import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * How much the QnA answers vary between two askings of one question, as an LLM's sampling
 * temperature makes them: which of the retrieved sentences it says, how many, and how it opens.
 */
export interface AnswerVariation {
  /**
   * From 0 (the default: the same answer every time) to 1: how far the sentences chosen stray from the
   * best-scoring ones, and how often the answer says one sentence more or fewer, or opens with a phrase.
   */
  temperature: number;
  /** Seeds the draws, so a run of the same questions in the same order gives the same answers. */
  seed?: number | undefined;
}

/** A draw in [0, 1). */
export type Draw = () => number;

/** The draws of an emulator's answers; undefined when they do not vary. */
export function answerDraws(variation: AnswerVariation | undefined): Draw | undefined {
  if (!variation || variation.temperature === 0) return undefined;
  const rng = xoroshiro128plus(variation.seed ?? Math.floor(Math.random() * 2 ** 32));
  return () => uniformFloat64(rng);
}

/** Throws a TypeError naming what is wrong with the option. */
export function checkAnswerVariation(variation: AnswerVariation | undefined): void {
  if (variation === undefined) return;
  const { temperature, seed } = variation;
  if (!(typeof temperature === 'number' && temperature >= 0 && temperature <= 1))
    throw new TypeError('Option answerVariation.temperature must be a number from 0 to 1');
  if (seed !== undefined && !Number.isSafeInteger(seed))
    throw new TypeError('Option answerVariation.seed must be an integer');
}

const OPENINGS = ['According to the documents, ', 'In short: ', 'Based on the knowledge base, '];

/** The sentence count and order an answer varies by, drawn once per answer. */
export interface Varied {
  /** How many sentences: the usual count, or one more or fewer. */
  count(usual: number): number;
  /** A sentence's score as sampled (Gumbel-max: the k largest are a draw without replacement by softmax). */
  key(score: number): number;
  /** An opening phrase, or none. */
  opening(): string;
}

export function varied(draw: Draw, temperature: number): Varied {
  return {
    count: (usual) => {
      const roll = draw();
      if (roll < temperature * 0.25) return Math.max(1, usual - 1);
      if (roll > 1 - temperature * 0.25) return usual + 1;
      return usual;
    },
    key: (score) => score / temperature - Math.log(-Math.log(draw() || Number.MIN_VALUE)),
    opening: () =>
      draw() < temperature * 0.5 ? (OPENINGS[Math.floor(draw() * OPENINGS.length)] as string) : '',
  };
}
