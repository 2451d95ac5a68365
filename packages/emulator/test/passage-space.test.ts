import { describe, expect, it } from 'vitest';
import { type PassageSpace, passageSpace, project } from '../src/qna/passage-space.js';

// A small deterministic generator (mulberry32): the same vectors on every run.
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

function vector(next: () => number, dimensions: number): Float64Array {
  return Float64Array.from({ length: dimensions }, next);
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/** The question's similarity to each passage, in the span's coordinates, is the one of the full vectors. */
function expectSameSimilarities(space: PassageSpace, passages: Float64Array[], question: Float64Array): void {
  const coordinates = project(question, space.basis, space.rank);
  passages.forEach((passage, at) => {
    const row = space.coordinates.subarray(at * space.rank, (at + 1) * space.rank);
    expect(dot(coordinates, row)).toBeCloseTo(dot(question, passage), 10);
  });
}

describe('the passages’ span', () => {
  it('gives every question the same similarity to every passage as the full vectors do', () => {
    const next = random(7);
    const passages = Array.from({ length: 30 }, () => vector(next, 128));
    const space = passageSpace(passages, 128);
    if (!space) throw new Error('expected a span: 30 passages in 128 dimensions');
    expect(space.rank).toBe(30);
    for (let q = 0; q < 20; q++) expectSameSimilarities(space, passages, vector(next, 128));
  });

  it('holds repeated and dependent passages in fewer coordinates, with the same similarities', () => {
    const next = random(11);
    const a = vector(next, 64);
    const b = vector(next, 64);
    const sum = a.map((x, i) => x + (b[i] as number));
    const passages = [a, b, Float64Array.from(a), sum, vector(next, 64)];
    const space = passageSpace(passages, 64);
    if (!space) throw new Error('expected a span: 5 passages in 64 dimensions');
    expect(space.rank).toBe(3);
    expectSameSimilarities(space, passages, vector(next, 64));
  });

  it('is not made when it would not save work, or for no passages', () => {
    const next = random(3);
    expect(
      passageSpace(
        Array.from({ length: 33 }, () => vector(next, 64)),
        64,
      ),
    ).toBeUndefined();
    expect(passageSpace([], 64)).toBeUndefined();
  });
});
