import type { DataPart, Message } from '@a2a-js/sdk';
import {
  ContextValuesError,
  isProvidedValuesPart,
  providedValuesPart,
  readProvidedValues,
  withProvidedValues,
} from '@dataworkz/context-values';
import { describe, expect, expectTypeOf, it } from 'vitest';

const uri = 'https://dataworkz.com/agents/ext/provided-values/v1';

describe('providedValuesPart', () => {
  it('builds the data part the service expects, and it is an A2A DataPart', () => {
    const part = providedValuesPart({ userName: 'Ada', tier: 2 }, uri);
    expect(part).toEqual({ kind: 'data', data: { userName: 'Ada', tier: 2 }, metadata: { [uri]: true } });
    expectTypeOf(part).toMatchTypeOf<DataPart>();
    expect(isProvidedValuesPart(part, uri)).toBe(true);
    expect(isProvidedValuesPart(part, 'https://other/uri')).toBe(false);
  });

  it('rejects non-JSON values and a blank URI', () => {
    expect(() => providedValuesPart({ when: new Date() } as never, uri)).toThrow(/values\.when/);
    expect(() => providedValuesPart({ a: 1 }, ' ')).toThrow(ContextValuesError);
  });
});

describe('withProvidedValues', () => {
  const message: Message = {
    kind: 'message',
    messageId: 'm-1',
    role: 'user',
    parts: [{ kind: 'text', text: 'Hello' }],
  };

  it('returns a new A2A message with the part added, leaving the original alone', () => {
    const next = withProvidedValues(message, { userName: 'Ada' }, uri);
    expectTypeOf(next).toEqualTypeOf<Message>();
    expect(next.parts).toEqual([
      message.parts[0],
      { kind: 'data', data: { userName: 'Ada' }, metadata: { [uri]: true } },
    ]);
    expect(message.parts).toHaveLength(1);
    expect(next.messageId).toBe('m-1');
  });

  it('replaces an earlier provided-values part instead of adding a second', () => {
    const twice = withProvidedValues(
      withProvidedValues(message, { userName: 'Ada' }, uri),
      { userName: 'Bo' },
      uri,
    );
    expect(twice.parts).toHaveLength(2);
    expect(readProvidedValues(twice, uri)).toEqual({ userName: 'Bo' });
  });
});

describe('readProvidedValues', () => {
  it('reads the values a message carries, merging several parts in order', () => {
    const message = {
      parts: [
        { kind: 'text', text: 'hi' },
        { kind: 'data', data: { a: 1, b: 1 }, metadata: { [uri]: true } },
        { kind: 'data', data: { ignored: true }, metadata: { type: 'SVC_STATUS_UPDATE' } },
        { kind: 'data', data: { b: 2 }, metadata: { [uri]: true } },
      ],
    };
    expect(readProvidedValues(message, uri)).toEqual({ a: 1, b: 2 });
  });

  it('returns undefined when there are none, including for another URI or a metadata flag other than true', () => {
    expect(readProvidedValues({ parts: [] }, uri)).toBeUndefined();
    expect(readProvidedValues({}, uri)).toBeUndefined();
    expect(
      readProvidedValues({ parts: [{ kind: 'data', data: { a: 1 }, metadata: { [uri]: 'yes' } }] }, uri),
    ).toBeUndefined();
    expect(
      readProvidedValues({ parts: [{ kind: 'data', data: { a: 1 }, metadata: { [uri]: true } }] }, 'x:y'),
    ).toBeUndefined();
  });

  it('keeps a __proto__ name as a plain value instead of changing the prototype', () => {
    const message = JSON.parse(
      `{"parts":[{"kind":"data","data":{"__proto__":{"admin":true}},"metadata":{"${uri}":true}}]}`,
    );
    const values = readProvidedValues(message, uri) as Record<string, unknown>;
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect((values as { admin?: unknown }).admin).toBeUndefined();
    expect(Object.keys(values)).toEqual(['__proto__']);
  });

  it.each([
    [null, 'message'],
    [{ parts: 'nope' }, 'message.parts'],
    [{ parts: [{ kind: 'data', data: [1], metadata: { [uri]: true } }] }, 'message.parts[0].data'],
    [
      {
        parts: [
          { kind: 'text', text: '' },
          { kind: 'data', metadata: { [uri]: true } },
        ],
      },
      'message.parts[1].data',
    ],
  ])('throws a ContextValuesError naming the path for %j', (message, path) => {
    let caught: unknown;
    try {
      readProvidedValues(message, uri);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ContextValuesError);
    expect((caught as ContextValuesError).path).toBe(path);
  });
});
