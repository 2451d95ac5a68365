import { sentences } from './punkt.js';
import { DIGIT, pythonFloat, SPACE, splitWords, WORD } from './python-text.js';

/**
 * The tokenization continuous-eval's token-overlap metrics use: each Punkt sentence through its
 * `SimpleTokenizer` (lower case, ASCII punctuation removed, NLTK's English stop words removed,
 * MacIntyre's contractions split, numbers read as numbers so `7` and `007` are one token), all with
 * Python's Unicode rules: white space is Python's, a word boundary sits between Python's word and
 * non-word characters (`é` is a word character), and a digit of any script is a digit (`٣` is 3).
 */

/** Python's `string.punctuation`. */
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/**
 * NLTK's English stop-word list. Later releases of NLTK's data add forms with an apostrophe (`he'd`,
 * `i'm`, …); punctuation is gone before the list is read, so those could never match and are left out.
 */
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

// Python's `\b`, between a word character and anything else.
const START = `(?<![${WORD}])(?=[${WORD}])`;
const END = `(?<=[${WORD}])(?![${WORD}])`;

/** The contractions left once punctuation is gone (the apostrophe forms cannot occur any more). */
const CONTRACTIONS = [
  new RegExp(`${START}(can)(not)${END}`, 'giu'),
  new RegExp(`${START}(gim)(me)${END}`, 'giu'),
  new RegExp(`${START}(gon)(na)${END}`, 'giu'),
  new RegExp(`${START}(got)(ta)${END}`, 'giu'),
  new RegExp(`${START}(lem)(me)${END}`, 'giu'),
  new RegExp(`${START}(wan)(na)(?=[${SPACE}])`, 'giu'),
];

const IS_NUMBER = new RegExp(
  `^[+-]?([${DIGIT}]+(\\.[${DIGIT}]*)?|\\.[${DIGIT}]+)([eE][+-]?[${DIGIT}]+)?$`,
  'u',
);

/** A token as a set member: a number is keyed by its value, as Python compares its floats. */
export type Token = string;

/** One sentence's tokens (continuous-eval's `SimpleTokenizer.tokenize`). */
function sentenceTokens(text: string): Token[] {
  let stripped = '';
  for (const char of text.toLowerCase()) if (!PUNCTUATION.has(char)) stripped += char;
  let spaced = ` ${splitWords(stripped)
    .filter((word) => !STOP_WORDS.has(word))
    .join(' ')} `;
  for (const pattern of CONTRACTIONS) spaced = spaced.replace(pattern, ' $1 $2 ');
  return splitWords(spaced).map((token) => (IS_NUMBER.test(token) ? `\u0000${pythonFloat(token)}` : token));
}

/** A text's tokens, sentence by sentence, as continuous-eval's `TokenOverlap` takes them. */
export function tokenize(text: string): Token[] {
  return sentences(text).flatMap(sentenceTokens);
}
