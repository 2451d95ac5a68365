import { readFileSync } from 'node:fs';
import { DIGIT, rstrip, SPACE, strip, WORD } from './python-text.js';

/**
 * Sentences as NLTK's `sent_tokenize` makes them: the Punkt algorithm (Kiss & Strunk, 2006) as NLTK
 * implements it, with NLTK's trained English parameters (`data/punkt/english`, from NLTK's data,
 * Apache-2.0): its abbreviations (`p.m.`, `dr.`, `u.s.`, `inc.`), collocations, frequent sentence
 * starters and the orthographic context of 20,366 words. A sentence keeps the white space Punkt keeps
 * (an answer's leading `"\n\n"` stays in its first sentence), since the metrics that read it count
 * characters. No npm package runs NLTK's trained model, so the algorithm is ported here; only its
 * tokenizing half (the trainer is not needed), and with Python's Unicode rules for `\s`, `\w`, `\d`.
 */

interface PunktParameters {
  abbrevTypes: Set<string>;
  /** Pairs as `first\tsecond`. */
  collocations: Set<string>;
  sentStarters: Set<string>;
  orthoContext: Map<string, number>;
}

// The orthographic contexts a word type was seen in during training, as bit flags.
const BEG_UC = 1 << 1;
const MID_UC = 1 << 2;
const UNK_UC = 1 << 3;
const BEG_LC = 1 << 4;
const MID_LC = 1 << 5;
const UNK_LC = 1 << 6;
const UC = BEG_UC | MID_UC | UNK_UC;
const LC = BEG_LC | MID_LC | UNK_LC;

let english: PunktParameters | undefined;

/** The parameters, read once on first use (the orthographic context is 236 KB). */
function parameters(): PunktParameters {
  if (english) return english;
  const read = (name: string) =>
    readFileSync(new URL(`../../data/punkt/english/${name}`, import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  english = {
    abbrevTypes: new Set(read('abbrev_types.txt')),
    collocations: new Set(read('collocations.tab')),
    sentStarters: new Set(read('sent_starters.txt')),
    orthoContext: new Map(
      read('ortho_context.tab').map((line) => {
        const [type, flags] = line.split('\t');
        return [type as string, Number(flags)];
      }),
    ),
  };
  return english;
}

// NLTK's English language variables, in JavaScript's syntax with Python's classes.
const S = `[${SPACE}]`;
const NOT_S = `[^${SPACE}]`;
const NON_WORD = `(?:[)";}\\]*:@'({\\[?!])`;
const MULTI_CHAR = `(?:-{2,}|\\.{2,}|(?:\\.${S}){2,}\\.)`;
const WORD_START = `[^("\`{\\[:;&#*@)}\\]\\-,]`;
const WORD_TOKEN = new RegExp(
  `${MULTI_CHAR}|(?=${WORD_START})${NOT_S}+?(?=${S}|$|${NON_WORD}|${MULTI_CHAR}|,(?=$|${S}|${NON_WORD}|${MULTI_CHAR}))|${NOT_S}`,
  'gu',
);
const PERIOD_CONTEXT = new RegExp(`[.?!](?=(?<after>${NON_WORD}|${S}+(?<next>${NOT_S}+)))`, 'gdu');
const BOUNDARY_REALIGNMENT = new RegExp(`^["')\\]}]+?(?:${S}+|(?=--)|$)`, 'u');
const NUMERIC = new RegExp(`^-?[.,]?[${DIGIT}][${DIGIT},.-]*\\.?$`, 'u');
const INITIAL = new RegExp(`^(?![${DIGIT}])[${WORD}]\\.$`, 'u');
const ELLIPSIS = /^\.\.+$/;
const UPPER = /^\p{Uppercase}/u;
const LOWER = /^\p{Lowercase}/u;
// Python's `string.whitespace`: the one place Punkt looks for ASCII white space only.
const ASCII_SPACE = new Set([' ', '\t', '\n', '\r', '\v', '\f']);
const SENT_END = new Set(['.', '?', '!']);
const PUNCTUATION = new Set([';', ':', ',', '.', '!', '?']);

class Token {
  readonly type: string;
  readonly periodFinal: boolean;
  sentbreak = false;
  abbr = false;
  ellipsis = false;

  constructor(readonly tok: string) {
    const lower = tok.toLowerCase();
    this.type = NUMERIC.test(lower) ? '##number##' : lower;
    this.periodFinal = tok.endsWith('.');
  }

  get typeNoPeriod(): string {
    return this.type.length > 1 && this.type.endsWith('.') ? this.type.slice(0, -1) : this.type;
  }

  get typeNoSentperiod(): string {
    return this.sentbreak ? this.typeNoPeriod : this.type;
  }

  get firstUpper(): boolean {
    return UPPER.test(this.tok);
  }

  get firstLower(): boolean {
    return LOWER.test(this.tok);
  }

  get isInitial(): boolean {
    return INITIAL.test(this.tok);
  }
}

function wordTokens(text: string): Token[] {
  const tokens: Token[] = [];
  for (const line of text.split('\n')) {
    if (strip(line) === '') continue;
    for (const match of line.matchAll(WORD_TOKEN)) tokens.push(new Token(match[0]));
  }
  return tokens;
}

/** The first pass: decisions from a token's own type. */
function annotateType(token: Token, params: PunktParameters): void {
  const { tok } = token;
  if (SENT_END.has(tok)) token.sentbreak = true;
  else if (ELLIPSIS.test(tok)) token.ellipsis = true;
  else if (token.periodFinal && !tok.endsWith('..')) {
    const stem = tok.slice(0, -1).toLowerCase();
    if (params.abbrevTypes.has(stem) || params.abbrevTypes.has(stem.split('-').at(-1) as string))
      token.abbr = true;
    else token.sentbreak = true;
  }
}

/** Whether a token starts a sentence by its orthographic context: yes, no or unknown. */
function orthoHeuristic(token: Token, params: PunktParameters): boolean | 'unknown' {
  if (PUNCTUATION.has(token.tok)) return false;
  const context = params.orthoContext.get(token.typeNoSentperiod) ?? 0;
  if (token.firstUpper && context & LC && !(context & MID_UC)) return true;
  if (token.firstLower && (context & UC || !(context & BEG_LC))) return false;
  return 'unknown';
}

/** The second pass: a period-final token decided by the token after it. */
function annotatePair(token: Token, next: Token, params: PunktParameters): void {
  if (!token.periodFinal) return;
  const type = token.typeNoPeriod;
  const nextType = next.typeNoSentperiod;
  const initial = token.isInitial;
  if (params.collocations.has(`${type}\t${nextType}`)) {
    token.sentbreak = false;
    token.abbr = true;
    return;
  }
  if ((token.abbr || token.ellipsis) && !initial) {
    if (orthoHeuristic(next, params) === true) {
      token.sentbreak = true;
      return;
    }
    if (next.firstUpper && params.sentStarters.has(nextType)) {
      token.sentbreak = true;
      return;
    }
  }
  if (initial || type === '##number##') {
    const starter = orthoHeuristic(next, params);
    if (starter === false) {
      token.sentbreak = false;
      token.abbr = true;
      return;
    }
    if (
      starter === 'unknown' &&
      initial &&
      next.firstUpper &&
      !((params.orthoContext.get(nextType) ?? 0) & LC)
    ) {
      token.sentbreak = false;
      token.abbr = true;
    }
  }
}

/** Whether a candidate's context holds a sentence break followed by another token. */
function containsSentbreak(text: string, params: PunktParameters): boolean {
  const tokens = wordTokens(text);
  for (const token of tokens) annotateType(token, params);
  let found = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const next = tokens[i + 1];
    if (next) annotatePair(token, next, params);
    if (found) return true;
    if (token.sentbreak) found = true;
  }
  return false;
}

function lastAsciiSpace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (ASCII_SPACE.has(text[i] as string)) return i;
  return 0;
}

/** The candidate ends (`.`, `?`, `!` before punctuation or a next word), each with the word before it. */
function* candidates(text: string): Generator<{ match: RegExpExecArray; context: string }> {
  let previous: { start: number; stop: number } = { start: 0, stop: 0 };
  let previousMatch: RegExpExecArray | undefined;
  const contextOf = (match: RegExpExecArray, slice: { start: number; stop: number }) =>
    text.slice(slice.start, slice.stop) + match[0] + (match.groups?.after ?? '');
  for (const match of text.matchAll(PERIOD_CONTEXT)) {
    const before = text.slice(previous.stop, match.index);
    // As NLTK: a space found at index 0 counts as none.
    let start = lastAsciiSpace(before);
    start = start ? start + previous.stop + 1 : previous.start;
    const word = { start, stop: match.index };
    if (previousMatch && previous.stop <= word.start)
      yield { match: previousMatch, context: contextOf(previousMatch, previous) };
    previousMatch = match;
    previous = word;
  }
  if (previousMatch) yield { match: previousMatch, context: contextOf(previousMatch, previous) };
}

function* slices(text: string, params: PunktParameters): Generator<[number, number]> {
  let lastBreak = 0;
  for (const { match, context } of candidates(text)) {
    if (!containsSentbreak(context, params)) continue;
    const end = match.index + match[0].length;
    yield [lastBreak, end];
    const next = match.indices?.groups?.next;
    lastBreak = match.groups?.next ? (next as [number, number])[0] : end;
  }
  // The last sentence without its trailing white space.
  yield [lastBreak, rstrip(text).length];
}

/** The sentences of a text, as `nltk.sent_tokenize(text)` returns them. */
export function sentences(text: string): string[] {
  const params = parameters();
  const spans = [...slices(text, params)];
  const out: string[] = [];
  // Closing quotes and brackets after a break belong to the sentence they close.
  let realign = 0;
  spans.forEach(([start, stop], i) => {
    const from = start + realign;
    const following = spans[i + 1];
    if (!following) {
      const last = text.slice(from, stop);
      if (last !== '') out.push(last);
      return;
    }
    const closing = BOUNDARY_REALIGNMENT.exec(text.slice(following[0], following[1]));
    if (closing) {
      out.push(text.slice(from, following[0] + rstrip(closing[0]).length));
      realign = closing[0].length;
    } else {
      realign = 0;
      const sentence = text.slice(from, stop);
      if (sentence !== '') out.push(sentence);
    }
  });
  return out;
}
