/**
 * The tokenization continuous-eval's token-overlap metrics use (its `SimpleTokenizer`): lower case, ASCII
 * punctuation removed, NLTK's English stop words removed, MacIntyre's contractions split, numbers read
 * as numbers (so `7` and `007` are one token).
 */

/** Python's `string.punctuation`. */
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/** NLTK's English stop-word list (179 words), which continuous-eval removes before comparing. */
const STOP_WORDS = new Set(
  `i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves
he him his himself she she's her hers herself it it's its itself they them their theirs themselves
what which who whom this that that'll these those am is are was were be been being have has had having
do does did doing a an the and but if or because as until while of at by for with about against between
into through during before after above below to from up down in out on off over under again further then
once here there when where why how all any both each few more most other some such no nor not only own
same so than too very s t can will just don don't should should've now d ll m o re ve y ain aren aren't
couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn
mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't
wouldn wouldn't`.split(/\s+/),
);

/** The contractions left once punctuation is gone (the apostrophe forms cannot occur any more). */
const CONTRACTIONS = [
  /\b(can)(not)\b/gi,
  /\b(gim)(me)\b/gi,
  /\b(gon)(na)\b/gi,
  /\b(got)(ta)\b/gi,
  /\b(lem)(me)\b/gi,
  /\b(wan)(na)(?=\s)/gi,
];

const IS_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A token as a set member: numbers by value, as Python compares its floats. */
export type Token = string;

export function tokenize(text: string): Token[] {
  let stripped = '';
  for (const char of text.toLowerCase()) if (!PUNCTUATION.has(char)) stripped += char;
  let spaced = ` ${stripped
    .split(/\s+/)
    .filter((word) => word !== '' && !STOP_WORDS.has(word))
    .join(' ')} `;
  for (const pattern of CONTRACTIONS) spaced = spaced.replace(pattern, ' $1 $2 ');
  return spaced
    .split(/\s+/)
    .filter((token) => token !== '')
    .map((token) => (IS_NUMBER.test(token) ? `\u0000${Number(token)}` : token));
}

/**
 * Sentences, as NLTK's Punkt splits them in the common case: after `.`, `!` or `?` (and any closing
 * quotes or brackets) followed by white space. Punkt's abbreviation list is not reproduced, so
 * "e.g. this" splits where Punkt may not.
 */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?]['")\]]*)\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}
