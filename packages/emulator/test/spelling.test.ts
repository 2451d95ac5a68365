import { describe, expect, it } from 'vitest';
import { Speller } from '../src/qna/spelling.js';

const english = ['the', 'number', 'device', 'devise', 'single', 'tracking', 'warranty', 'account', 'shows'];
const frequency = (word: string) => {
  const rank = english.indexOf(word);
  return rank < 0 ? undefined : rank;
};
const speller = new Speller(
  new Set(['tracking', 'number', 'warranty', 'device', 'single', 'account', 'postgresql', 'sign']),
  frequency,
);

describe('the speller', () => {
  it('corrects a word neither the corpus nor the word list knows to the nearest corpus term', () => {
    expect(speller.correct('the trakcing number shows nothing')).toBe('the tracking number shows nothing');
    expect(speller.correct('how long is the waranty')).toBe('how long is the warranty');
    expect(speller.correct('conect to postgress')).toBe('conect to postgresql');
  });

  it('leaves English words, short words and words too far from any term as typed', () => {
    expect(speller.correct('my devise')).toBe('my devise');
    expect(speller.correct('sgin in')).toBe('sgin in');
    expect(speller.correct('a zzzzzzzz')).toBe('a zzzzzzzz');
  });

  it('returns the same text when nothing needs correcting', () => {
    const text = 'the number shows';
    expect(speller.correct(text)).toBe(text);
  });

  it('corrects only the first 1,000 characters of a long text', () => {
    const tail = ' waranty'.repeat(200);
    const corrected = speller.correct(`waranty${tail}`);
    expect(corrected.startsWith('warranty warranty')).toBe(true);
    expect(corrected.endsWith(' waranty waranty')).toBe(true);
  });
});
