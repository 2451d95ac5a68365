import {
  assertContextValues,
  assertJsonValue,
  ContextValuesError,
  snapshotContextValues,
} from '@dataworkz/context-values';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

function problemAt(value: unknown, root?: string): { path: string | undefined; message: string } {
  try {
    assertJsonValue(value, root);
  } catch (error) {
    expect(error).toBeInstanceOf(ContextValuesError);
    const { path, message } = error as ContextValuesError;
    return { path, message };
  }
  throw new Error('expected a ContextValuesError');
}

describe('assertJsonValue', () => {
  it('accepts plain JSON, null-prototype objects and shared (acyclic) references', () => {
    const shared = { a: 1 };
    const bare = Object.assign(Object.create(null) as object, { x: 'y' });
    expect(() =>
      assertJsonValue({
        s: 'x',
        n: -1.5,
        b: false,
        z: null,
        list: [1, [2, { deep: true }]],
        shared,
        again: shared,
        bare,
      }),
    ).not.toThrow();
  });

  it.each([
    ['a function', { user: { greet: () => 'hi' } }, 'values.user.greet', /function/],
    ['a symbol', { tags: ['a', Symbol('b')] }, 'values.tags[1]', /symbol/],
    ['a BigInt', { amount: 10n }, 'values.amount', /BigInt/],
    ['undefined', { missing: undefined }, 'values.missing', /undefined/],
    ['NaN', { ratio: Number.NaN }, 'values.ratio', /NaN/],
    ['Infinity', { limits: [1, Number.POSITIVE_INFINITY] }, 'values.limits[1]', /Infinity/],
    ['-Infinity', { 'odd key': Number.NEGATIVE_INFINITY }, 'values.odd key', /-Infinity/],
    ['a Date', { when: new Date(0) }, 'values.when', /a Date/],
    ['a Map', { lookup: new Map() }, 'values.lookup', /Map/],
    ['a class instance', { item: new (class Order {})() }, 'values.item', /Order/],
    ['a symbol key', { [Symbol('k')]: 1 }, 'values', /symbol keys/],
  ])('rejects %s and names its path', (_name, value, path, message) => {
    const problem = problemAt(value, 'values');
    expect(problem.path).toBe(path);
    expect(problem.message).toContain(path);
    expect(problem.message).toMatch(message);
  });

  it('rejects an array hole, naming the first one', () => {
    const list = new Array(3).fill('x', 0, 1);
    expect(problemAt({ list }, 'values')).toMatchObject({
      path: 'values.list[1]',
      message: expect.stringMatching(/hole/),
    });
  });

  it('rejects cycles, naming where the cycle closes', () => {
    const profile: Record<string, unknown> = { name: 'Ada' };
    profile.self = { again: profile };
    expect(problemAt({ profile }, 'values')).toMatchObject({ path: 'values.profile.self.again' });
    const list: unknown[] = [];
    list.push(list);
    expect(problemAt(list).path).toBe('value[0]');
  });

  it('accepts deep nesting that JSON.stringify can serialise', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 1_000; level++) deep = { next: [deep] };
    expect(() => assertJsonValue(deep)).not.toThrow();
  });

  it('rejects nesting deeper than the call stack with a clear error, as JSON.stringify would fail', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(problemAt(deep, 'values')).toMatchObject({
      path: 'values',
      message: expect.stringMatching(/too deeply/),
    });
  });

  it('accepts every value fast-check generates as JSON, and they round-trip', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assertJsonValue(value);
        const text = JSON.stringify(value);
        expect(JSON.stringify(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a non-JSON value planted anywhere in a JSON object', () => {
    const poison = fc.constantFrom<unknown>(undefined, Number.NaN, 1n, Symbol('s'), () => 1, new Date(0));
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), poison, (values, key, bad) => {
        const planted = { ...values, nested: [{ [key]: bad }] };
        expect(() => assertContextValues(planted)).toThrow(ContextValuesError);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('reading the values', () => {
  it('a getter that throws is a ContextValuesError naming the path, with the cause', () => {
    const broken = new Error('getter broke');
    const values = {
      profile: {
        get tier() {
          throw broken;
        },
      },
    };
    let error: unknown;
    try {
      assertContextValues(values);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ContextValuesError);
    expect(error).toMatchObject({ path: 'values.profile.tier', parameter: 'values', cause: broken });
    expect((error as Error).message).toBe('values.profile.tier could not be read: getter broke');
  });

  it('a Proxy whose traps throw is a ContextValuesError, never a raw error', () => {
    const trap = () => {
      throw new TypeError('trap');
    };
    for (const handler of [{ ownKeys: trap }, { get: trap }, { getPrototypeOf: trap }]) {
      const proxy = new Proxy({ a: 1 }, handler);
      expect(() => assertContextValues({ proxy })).toThrow(ContextValuesError);
    }
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(() => assertContextValues({ gone: revocable.proxy })).toThrow(ContextValuesError);
  });

  it('a snapshot is a plain copy read once: later changes to the original do not reach it', () => {
    let reads = 0;
    const values = {
      get count() {
        reads += 1;
        return reads;
      },
      list: [1, { b: 2 }],
    };
    const copy = snapshotContextValues(values);
    expect(copy).toEqual({ count: 1, list: [1, { b: 2 }] });
    expect(reads).toBe(1);
    (values.list[1] as { b: number }).b = 3;
    expect(copy).toEqual({ count: 1, list: [1, { b: 2 }] });
    expect(Object.getOwnPropertyDescriptor(copy, 'count')).toMatchObject({ value: 1 });
  });

  it('keeps a __proto__ name as a plain key', () => {
    const values = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const copy = snapshotContextValues(values);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('assertContextValues', () => {
  it.each([null, 'text', 3, [1, 2]])('rejects %j at the top level', (values) => {
    expect(() => assertContextValues(values)).toThrow(/values must be an object of JSON values/);
  });
});
