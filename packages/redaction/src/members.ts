/**
 * Secret-named members redacted in JSON text without parsing it: a large body (a 1 MiB search
 * answer) costs one search for the words a secret name holds, not a parse, a walk and a
 * serialisation. Outside its strings JSON holds no letters but those of `true`, `false` and `null`,
 * so each word found is inside a string: the one that ends at the next quote not escaped, and starts
 * at the last one before the word. That string is a member's name when a colon follows it. The text
 * keeps its bytes but for the values replaced.
 */

/** The words a secret name holds (see names.ts), and an escape, which could spell one. */
const secretWord = /key|token|secret|passw|passp|pwd|credential|sig|jwt|dpop|cookie|auth|session|bearer|\\/gi;

/**
 * The text with the value of every member `isSecret` names replaced by `replacement` (a JSON string),
 * whatever its type; `null` and `""` are kept. Undefined when no member is secret.
 */
export function redactMembers(
  text: string,
  isSecret: (name: string) => boolean,
  replacement: string,
): string | undefined {
  let out: string | undefined;
  let kept = 0;
  secretWord.lastIndex = 0;
  for (let word = secretWord.exec(text); word !== null; word = secretWord.exec(text)) {
    const end = stringEnd(text, word.index);
    let next = end;
    while (isSpace(text.charCodeAt(next))) next++;
    // Not a name (a value, or past the last string): on to the next word after this string.
    if (text.charCodeAt(next) !== 0x3a || end === text.length) {
      secretWord.lastIndex = Math.max(end, secretWord.lastIndex);
      continue;
    }
    const start = stringStart(text, word.index);
    const raw = text.slice(start + 1, end - 1);
    next++;
    while (isSpace(text.charCodeAt(next))) next++;
    secretWord.lastIndex = next;
    if (!isSecret(raw.includes('\\') ? unescaped(raw) : raw)) continue;
    const valueEnds = valueEnd(text, next);
    const value = text.slice(next, valueEnds);
    if (value === 'null' || value === '""' || valueEnds === next) continue;
    out = (out ?? '') + text.slice(kept, next) + replacement;
    kept = valueEnds;
    // The names inside a redacted value are gone with it.
    secretWord.lastIndex = valueEnds;
  }
  return out === undefined ? undefined : out + text.slice(kept);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** A member name's escapes read (`api\u005fkey`); as it stands when they do not read. */
function unescaped(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** Where the JSON value starting at `start` ends: a string, an object or array (nesting counted), or a literal. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === 0x22) return stringEnd(text, start);
  if (first !== 0x7b && first !== 0x5b) {
    let i = start;
    while (i < text.length && !/[,}\]\s]/.test(text[i] as string)) i++;
    return i;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i) - 1;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The index after the first quote, not escaped, after `from`: the end of the string `from` is in. */
function stringEnd(text: string, from: number): number {
  let quote = text.indexOf('"', from + 1);
  while (quote >= 0 && escaped(text, quote)) quote = text.indexOf('"', quote + 1);
  return quote < 0 ? text.length : quote + 1;
}

/** The index of the last quote, not escaped, before `from`: the start of the string `from` is in. */
function stringStart(text: string, from: number): number {
  let quote = text.lastIndexOf('"', from - 1);
  while (quote > 0 && escaped(text, quote)) quote = text.lastIndexOf('"', quote - 1);
  return Math.max(quote, -1);
}

/** Whether the quote at `at` is escaped (an odd number of backslashes before it). */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}
