/**
 * Reads a Python list literal of strings, as the vendor's golden files hold passages (`['a', "b's"]`):
 * either quote, backslash escapes, adjacent literals joined, a trailing comma. Nothing else is accepted.
 */

const ESCAPES: Record<string, string> = {
  '\n': '',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\u0007',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/** Why a text is not a list of strings, and where. */
export class ListLiteralError extends Error {
  override name = 'ListLiteralError';
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at character ${offset + 1}`);
  }
}

/** The strings of a Python list literal, as the vendor's golden files write their passages. */
export function parsePythonList(text: string): string[] {
  let at = 0;
  const space = () => {
    while (at < text.length && /\s/.test(text[at] as string)) at += 1;
  };
  const fail = (message: string): never => {
    throw new ListLiteralError(message, at);
  };
  const string = (): string => {
    const quote = text[at] as string;
    at += 1;
    let value = '';
    for (;;) {
      if (at >= text.length) fail('an unterminated string');
      const char = text[at] as string;
      if (char === quote) {
        at += 1;
        return value;
      }
      if (char !== '\\') {
        value += char;
        at += 1;
        continue;
      }
      const next = text[at + 1] ?? '';
      if (next in ESCAPES) {
        value += ESCAPES[next];
        at += 2;
      } else if (next === 'x' || next === 'u' || next === 'U') {
        const digits = next === 'x' ? 2 : next === 'u' ? 4 : 8;
        const hex = text.slice(at + 2, at + 2 + digits);
        if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) fail(`a bad \\${next} escape`);
        value += String.fromCodePoint(Number.parseInt(hex, 16));
        at += 2 + digits;
      } else {
        // Python keeps an unknown escape as written.
        value += `\\${next}`;
        at += 2;
      }
    }
  };
  space();
  if (text[at] !== '[') fail('expected "["');
  at += 1;
  const items: string[] = [];
  for (;;) {
    space();
    if (text[at] === ']') {
      at += 1;
      break;
    }
    let item = '';
    if (text[at] !== "'" && text[at] !== '"') fail('expected a quoted string');
    // Adjacent literals are one string, as in Python.
    while (text[at] === "'" || text[at] === '"') {
      item += string();
      space();
    }
    items.push(item);
    if (text[at] === ',') {
      at += 1;
      continue;
    }
    if (text[at] !== ']') fail('expected "," or "]"');
  }
  space();
  if (at < text.length) fail('unexpected text after the list');
  return items;
}
