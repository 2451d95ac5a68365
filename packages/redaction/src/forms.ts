/**
 * The forms a secret takes in the text it rides in: as it is, percent-encoded (a query, a form),
 * escaped inside a JSON string, and base64 or base64url (a Basic credential, an encoded blob, a token
 * that wraps it), at each of the three byte alignments it can have inside a longer base64 text.
 */

/** Shorter values are too likely to occur by chance: scrubbing them would mangle unrelated text. */
export const MIN_SECRET_LENGTH = 8;

/** The forms a plain search finds: raw, percent-encoded, JSON-escaped, base64 and base64url. */
export function plainForms(secret: string): string[] {
  const forms = new Set<string>([secret, JSON.stringify(secret).slice(1, -1)]);
  const percent = encodeURIComponent(secret);
  forms.add(percent);
  forms.add(percent.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  forms.add(percent.replaceAll('%20', '+'));
  for (const run of base64Runs(utf8Bytes(secret))) {
    forms.add(run);
    forms.add(run.replaceAll('+', '-').replaceAll('/', '_'));
  }
  // UTF-16 read as UTF-8 or Latin-1 (a body whose charset was not read): a NUL between the characters
  // of an ASCII secret, whichever the byte order.
  if ([...secret].every((c) => c > '\0' && c < '\x80')) forms.add([...secret].join('\0'));
  return [...forms];
}

/** The secret's bytes in UTF-16, both byte orders, as Latin-1 text: found in a body of bytes. */
export function utf16Forms(secret: string): string[] {
  let le = '';
  let be = '';
  for (let i = 0; i < secret.length; i++) {
    const unit = secret.charCodeAt(i);
    le += String.fromCharCode(unit & 0xff, unit >> 8);
    be += String.fromCharCode(unit >> 8, unit & 0xff);
  }
  return [le, be];
}

/**
 * The base64 characters that only the secret's bytes decide, at each offset (0, 1, 2) it can start at
 * within a 3-byte group: found inside any base64 text that encodes it (`SSWS <key>`, `key=<key>`).
 */
function base64Runs(bytes: Uint8Array): string[] {
  const runs: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    let binary = '\0'.repeat(offset);
    for (const byte of bytes) binary += String.fromCharCode(byte);
    const encoded = btoa(binary);
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    if (end - start >= MIN_SECRET_LENGTH) runs.push(encoded.slice(start, end));
  }
  return runs;
}

/**
 * A pattern that matches the secret inside JSON text however its characters are escaped: each may be
 * written as itself or as `\uXXXX` (any case), `/` as `\/`, `"` and `\` with a backslash.
 */
export function escapedPattern(secret: string): string {
  let out = '';
  for (const char of secret) {
    const alternatives = [escapeRegExp(char), unicodeEscape(char)];
    if (char === '/') alternatives.push('\\\\/');
    if (char === '"') alternatives.push('\\\\"');
    if (char === '\\') alternatives.push('\\\\\\\\');
    out += `(?:${alternatives.join('|')})`;
  }
  return out;
}

/** `\uXXXX` for each UTF-16 unit of a character, the hex digits in either case. */
function unicodeEscape(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) {
    const hex = char.charCodeAt(i).toString(16).padStart(4, '0');
    out += `\\\\u${[...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('')}`;
  }
  return out;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export function utf8Bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
