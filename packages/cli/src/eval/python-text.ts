/**
 * Python 3's Unicode rules for the text operations the reference metrics run (`str.split()`,
 * `str.strip()`, and `re` with str patterns), which differ from JavaScript's: `\s` there is what
 * `str.isspace()` accepts (U+001C–U+001F and U+0085 but not U+FEFF), `\w` is a letter, a number of any
 * script or `_`, and `\d` a decimal digit of any script. The classes below are those sets, for use
 * inside regular expressions with the `u` flag.
 */

/** Python's `\s` (and `str.isspace()`). */
export const SPACE = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Python's `\w`. */
export const WORD = '\\p{L}\\p{N}_';
/** Python's `\d`. */
export const DIGIT = '\\p{Nd}';

const SPACES = new RegExp(`[${SPACE}]+`, 'gu');
const A_SPACE = new RegExp(`^[${SPACE}]$`, 'u');
const A_DIGIT = new RegExp(`^[${DIGIT}]$`, 'u');

/** `text.split()`: the words between runs of white space, none empty. */
export function splitWords(text: string): string[] {
  return text.split(SPACES).filter((word) => word !== '');
}

// Every white space character is in the Basic Multilingual Plane, so code units can be tested one by one
// (a loop, as `/\s+$/` rescans each run of spaces that is not at the end).

/** `text.rstrip()`. */
export function rstrip(text: string): string {
  let end = text.length;
  while (end > 0 && A_SPACE.test(text[end - 1] as string)) end -= 1;
  return text.slice(0, end);
}

/** `text.strip()`. */
export function strip(text: string): string {
  let start = 0;
  while (start < text.length && A_SPACE.test(text[start] as string)) start += 1;
  return rstrip(text.slice(start));
}

/**
 * `float(text)` for a text that matched a number pattern with Python's `\d`: digits of any script read
 * as their value (`٣` is 3), as Python's `float` reads them.
 */
export function pythonFloat(text: string): number {
  let ascii = '';
  for (const char of text) ascii += A_DIGIT.test(char) ? String(digitValue(char)) : char;
  return Number(ascii);
}

/**
 * A decimal digit's value. Unicode keeps every script's digits 0 to 9 at consecutive code points, so a
 * digit's value is its distance from the start of its run, modulo 10 (several runs can abut).
 */
function digitValue(char: string): number {
  const code = char.codePointAt(0) as number;
  let start = code;
  while (start > 0 && A_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
  return (code - start) % 10;
}
