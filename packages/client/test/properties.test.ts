import { InvalidParameterError, parseProperties, serializeProperties } from '@dataworkz/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('serializeProperties', () => {
  it('joins key=value pairs with ;', () => {
    expect(serializeProperties({ include_probe: false, context: 3 })).toBe('include_probe=false;context=3');
    expect(serializeProperties({ mode: 'fast' })).toBe('mode=fast');
    expect(serializeProperties({})).toBe('');
  });

  it('passes raw strings and undefined through', () => {
    expect(serializeProperties('include_probe=true')).toBe('include_probe=true');
    expect(serializeProperties(undefined)).toBeUndefined();
  });

  it.each([
    [{ 'a;b': 1 }],
    [{ 'a=b': 1 }],
    [{ '': 1 }],
    [{ a: 'x;y' }],
    [{ a: 'x=y' }],
    [{ a: Number.NaN }],
    [{ a: null as unknown as string }],
    [[] as unknown as Record<string, string>],
  ])('refuses %j', (value) => {
    expect(() => serializeProperties(value)).toThrow(InvalidParameterError);
  });
});

describe('properties round trip', () => {
  const key = fc.string({ minLength: 1 }).filter((s) => !/[;=]/.test(s));
  const value = fc.oneof(
    fc.string().filter((s) => !/[;=]/.test(s)),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
  );

  it('parse(serialize(x)) gives every value back as text', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value), (properties) => {
        const text = serializeProperties(properties) as string;
        const parsed = parseProperties(text);
        expect(parsed).toEqual(
          Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, String(v)])),
        );
        expect(serializeProperties(parsed)).toBe(text);
      }),
      { numRuns: 5000 },
    );
  });

  it('any ; or = in a key or value is refused, never written', () => {
    const hostile = fc
      .tuple(fc.string(), fc.constantFrom(';', '='), fc.string())
      .map(([a, c, b]) => `${a}${c}${b}`);
    fc.assert(
      fc.property(hostile, fc.boolean(), (text, inKey) => {
        const properties = inKey ? { [text]: 'v' } : { k: text };
        expect(() => serializeProperties(properties)).toThrow(InvalidParameterError);
      }),
      { numRuns: 2000 },
    );
  });
});
