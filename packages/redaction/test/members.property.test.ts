import { Redaction } from '@dataworkz/redaction';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { publicNames, secretMembers } from './support/credential-table.js';

// A JSON body's secret-named members are redacted in its text, without a parse (a large body costs a
// search, not a parse, a walk and a serialisation): the result must be what the walk of the parsed
// value gives, for any JSON, compact or indented, names escaped or not.

const names = fc.oneof(
  fc.constantFrom(...secretMembers, ...publicNames, 'apiKeys', 'private_key_pem', 'passage', 'author'),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
);

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, '', 0, -1.5e3),
    fc.string(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(names, tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('secret-named members redacted in the text', () => {
  const redaction = new Redaction([]);

  it('match the walk of the parsed value, compact or indented, escaped or not', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(0, 2), fc.boolean(), (value, indent, escapeLetters) => {
        let text = JSON.stringify(value, null, indent);
        // Escapes a JSON writer may use: `\u` for letters of names and values alike.
        if (escapeLetters) text = text.replaceAll('k', '\\u006b').replaceAll('\\\\u006b', '\\\\k');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return;
        }
        expect(JSON.parse(redaction.body(text))).toEqual(redaction.value(parsed));
      }),
      { seed: 4242, numRuns: 2000 },
    );
  });
});
