import { FilterExpression, type FilterValue, filter, InvalidParameterError } from '@dataworkz/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

interface Condition {
  field: string;
  op: 'in' | '=';
  values: FilterValue[];
}

/** A strict reader of the filter grammar the builder writes; throws on anything else. */
function parseFilter(text: string): Condition[] {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`expected ${what} at ${at} in ${text}`);
  };
  const expect_ = (token: string) => {
    if (!text.startsWith(token, at)) fail(JSON.stringify(token));
    at += token.length;
  };
  const field = () => {
    const match = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(text.slice(at));
    if (!match) return fail('a field');
    at += match[0].length;
    return match[0];
  };
  const literal = (): FilterValue => {
    if (text[at] === "'") {
      let value = '';
      at++;
      for (;;) {
        if (at >= text.length) return fail('a closing quote');
        if (text[at] === "'") {
          if (text[at + 1] === "'") {
            value += "'";
            at += 2;
            continue;
          }
          at++;
          return value;
        }
        value += text[at];
        at++;
      }
    }
    const match = /^(true|false|-?\d+(\.\d+)?(e[+-]?\d+)?)/.exec(text.slice(at));
    if (!match) return fail('a literal');
    at += match[0].length;
    return match[0] === 'true' ? true : match[0] === 'false' ? false : Number(match[0]);
  };
  const conditions: Condition[] = [];
  for (;;) {
    const name = field();
    if (text.startsWith(' in (', at)) {
      at += 5;
      const values = [literal()];
      while (text.startsWith(', ', at)) {
        at += 2;
        values.push(literal());
      }
      expect_(')');
      conditions.push({ field: name, op: 'in', values });
    } else {
      expect_(' = ');
      conditions.push({ field: name, op: '=', values: [literal()] });
    }
    if (at === text.length) return conditions;
    expect_(' and ');
  }
}

describe('filter builder', () => {
  it('writes in, = and and', () => {
    expect(String(filter.in('version', ['1.2', '2.0']))).toBe("version in ('1.2', '2.0')");
    expect(String(filter.eq('year', 2024))).toBe('year = 2024');
    expect(String(filter.and(filter.in('version', ['2.0']), filter.eq('draft', false)))).toBe(
      "version in ('2.0') and draft = false",
    );
  });

  it('doubles quotes inside string values', () => {
    expect(String(filter.eq('title', "O'Brien's"))).toBe("title = 'O''Brien''s'");
    expect(String(filter.in('v', ["') or 1=1 --"]))).toBe("v in (''') or 1=1 --')");
  });

  it.each([
    () => filter.in('version', []),
    () => filter.in('version; drop', ['x']),
    () => filter.eq('a b', 'x'),
    () => filter.eq('', 'x'),
    () => filter.eq('n', Number.POSITIVE_INFINITY),
    () => filter.eq('n', null as unknown as string),
    () => filter.and(),
    () => filter.and("a = 'b' or 1=1" as unknown as FilterExpression),
  ])('refuses bad input %#', (build) => {
    expect(build).toThrow(InvalidParameterError);
  });

  it('is a FilterExpression that serialises to its text', () => {
    const expression = filter.eq('a', 'b');
    expect(expression).toBeInstanceOf(FilterExpression);
    expect(JSON.stringify({ expression })).toBe(`{"expression":"a = 'b'"}`);
  });
});

describe('filter builder properties', () => {
  const field = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}(\.[A-Za-z_][A-Za-z0-9_]{0,5})?$/);
  const value: fc.Arbitrary<FilterValue> = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string({
      unit: fc.constantFrom("'", '"', ')', '(', ',', ' ', 'a', 'n', 'd', 'o', 'r', '\\', ';', '-'),
    }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    fc.boolean(),
  );
  const condition = fc.oneof(
    fc.record({
      field,
      op: fc.constant('in' as const),
      values: fc.array(value, { minLength: 1, maxLength: 5 }),
    }),
    fc.record({ field, op: fc.constant('=' as const), values: fc.tuple(value) }),
  );

  it('no value can change the structure: the text parses back to exactly the conditions given', () => {
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 4 }), (conditions) => {
        const built = conditions.map((c) =>
          c.op === 'in' ? filter.in(c.field, c.values) : filter.eq(c.field, c.values[0] as FilterValue),
        );
        const text = String(built.length === 1 ? built[0] : filter.and(...built));
        expect(parseFilter(text)).toEqual(conditions);
      }),
      { numRuns: 5000 },
    );
  });

  it('any field that is not a plain identifier is refused', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(s)),
        (name) => {
          expect(() => filter.eq(name, 'x')).toThrow(InvalidParameterError);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
