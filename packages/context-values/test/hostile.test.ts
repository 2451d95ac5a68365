import {
  assertContextValues,
  assertJsonValue,
  type ContextValues,
  ContextValuesError,
  extensionsHeader,
  findProvidedValuesUri,
  isProvidedValuesPart,
  providedValuesPart,
  providedValuesUri,
  readProvidedValues,
  snapshotContextValues,
  snapshotJsonValue,
  withProvidedValues,
} from '@dataworkz/context-values';
import { describe, expect, it } from 'vitest';

const uri = 'https://dataworkz.com/agents/ext/provided-values/v1';
const flag = { [uri]: true };
const TRAPS = [
  'get',
  'has',
  'ownKeys',
  'getOwnPropertyDescriptor',
  'getPrototypeOf',
  'defineProperty',
  'deleteProperty',
  'set',
  'setPrototypeOf',
  'isExtensible',
  'preventExtensions',
  'apply',
  'construct',
] as const;
type Trap = (typeof TRAPS)[number];

/** Puts the value a case makes hostile in its place: a Proxy whose one trap throws, or an object with a throwing getter. */
type Wrap = <T extends object>(target: T) => T;

function failure(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

function expectContextValuesError(error: unknown, path: string, cause?: unknown): void {
  expect(error).toBeInstanceOf(ContextValuesError);
  expect((error as ContextValuesError).path).toBe(path);
  if (cause !== undefined) expect((error as Error).cause).toBe(cause);
}

// Each reader, with a Proxy at the top of what it reads and nested inside it; the paths say which
// traps the reader reaches and where. A trap not listed must not be reached (nothing is written).
const proxyCases: ReadonlyArray<[string, (wrap: Wrap) => unknown, Partial<Record<Trap, string>>]> = [
  [
    'snapshotContextValues, top level',
    (wrap) => snapshotContextValues(wrap({ a: 1 })),
    { get: 'values.a', ownKeys: 'values', getOwnPropertyDescriptor: 'values', getPrototypeOf: 'values' },
  ],
  [
    'snapshotContextValues, nested object',
    (wrap) => snapshotContextValues({ user: { profile: wrap({ a: 1 }) } }),
    {
      get: 'values.user.profile.a',
      ownKeys: 'values.user.profile',
      getOwnPropertyDescriptor: 'values.user.profile',
      getPrototypeOf: 'values.user.profile',
    },
  ],
  [
    'snapshotContextValues, nested array',
    (wrap) => snapshotContextValues({ tags: wrap(['x']) }),
    { get: 'values.tags', has: 'values.tags[0]', ownKeys: 'values.tags', getPrototypeOf: 'values.tags' },
  ],
  [
    'assertContextValues',
    (wrap) => assertContextValues({ user: wrap({ a: 1 }) }, 'contextValues'),
    {
      get: 'contextValues.user.a',
      ownKeys: 'contextValues.user',
      getOwnPropertyDescriptor: 'contextValues.user',
      getPrototypeOf: 'contextValues.user',
    },
  ],
  [
    'snapshotJsonValue, top-level array',
    (wrap) => snapshotJsonValue(wrap([1])),
    { get: 'value', has: 'value[0]', ownKeys: 'value', getPrototypeOf: 'value' },
  ],
  [
    'assertJsonValue, nested',
    (wrap) => assertJsonValue([{ a: wrap({ b: 1 }) }]),
    {
      get: 'value[0].a.b',
      ownKeys: 'value[0].a',
      getOwnPropertyDescriptor: 'value[0].a',
      getPrototypeOf: 'value[0].a',
    },
  ],
  [
    'providedValuesPart, values',
    (wrap) => providedValuesPart({ user: wrap({ a: 1 }) }, uri),
    {
      get: 'values.user.a',
      ownKeys: 'values.user',
      getOwnPropertyDescriptor: 'values.user',
      getPrototypeOf: 'values.user',
    },
  ],
  [
    'withProvidedValues, values',
    (wrap) => withProvidedValues({ parts: [] }, wrap({ a: 1 }), uri),
    { get: 'values.a', ownKeys: 'values', getOwnPropertyDescriptor: 'values', getPrototypeOf: 'values' },
  ],
  [
    'withProvidedValues, the message',
    (wrap) => withProvidedValues(wrap({ kind: 'message', parts: [] }), { a: 1 }, uri),
    { get: 'message.parts', ownKeys: 'message', getOwnPropertyDescriptor: 'message.kind' },
  ],
  [
    'withProvidedValues, its parts',
    (wrap) => withProvidedValues({ parts: wrap([{ kind: 'text', text: 'hi' }]) }, { a: 1 }, uri),
    { get: 'message.parts', has: 'message.parts[0]' },
  ],
  [
    'withProvidedValues, a part',
    (wrap) => withProvidedValues({ parts: [{ kind: 'text' }, wrap({ kind: 'data' })] }, { a: 1 }, uri),
    { get: 'message.parts[1].kind' },
  ],
  [
    'withProvidedValues, a part’s metadata',
    (wrap) => withProvidedValues({ parts: [{ kind: 'data', metadata: wrap(flag) }] }, { a: 1 }, uri),
    { get: `message.parts[0].metadata.${uri}` },
  ],
  [
    'readProvidedValues, the message',
    (wrap) => readProvidedValues(wrap({ parts: [] }), uri),
    { get: 'message.parts' },
  ],
  [
    'readProvidedValues, its parts',
    (wrap) => readProvidedValues({ parts: wrap([{ kind: 'data', data: {}, metadata: flag }]) }, uri),
    { get: 'message.parts', has: 'message.parts[0]' },
  ],
  [
    'readProvidedValues, a part',
    (wrap) =>
      readProvidedValues(
        { parts: [{ kind: 'text' }, wrap({ kind: 'data', data: {}, metadata: flag })] },
        uri,
      ),
    { get: 'message.parts[1].kind' },
  ],
  [
    'readProvidedValues, a part’s metadata',
    (wrap) => readProvidedValues({ parts: [{ kind: 'data', data: {}, metadata: wrap(flag) }] }, uri),
    { get: `message.parts[0].metadata.${uri}` },
  ],
  [
    'readProvidedValues, the data',
    (wrap) => readProvidedValues({ parts: [{ kind: 'data', data: wrap({ a: 1 }), metadata: flag }] }, uri),
    {
      get: 'message.parts[0].data.a',
      ownKeys: 'message.parts[0].data',
      getOwnPropertyDescriptor: 'message.parts[0].data',
      getPrototypeOf: 'message.parts[0].data',
    },
  ],
  [
    'readProvidedValues, nested in the data',
    (wrap) =>
      readProvidedValues(
        { parts: [{ kind: 'data', data: { user: { tags: wrap(['x']) } }, metadata: flag }] },
        uri,
      ),
    {
      get: 'message.parts[0].data.user.tags',
      has: 'message.parts[0].data.user.tags[0]',
      ownKeys: 'message.parts[0].data.user.tags',
      getPrototypeOf: 'message.parts[0].data.user.tags',
    },
  ],
  [
    'isProvidedValuesPart, the part',
    (wrap) => isProvidedValuesPart(wrap({ kind: 'data', metadata: flag }), uri),
    { get: 'part.kind' },
  ],
  [
    'isProvidedValuesPart, its metadata, under a given path',
    (wrap) => isProvidedValuesPart({ kind: 'data', metadata: wrap(flag) }, uri, 'parts[3]'),
    { get: `parts[3].metadata.${uri}` },
  ],
  [
    'findProvidedValuesUri, the card',
    (wrap) => findProvidedValuesUri(wrap({ capabilities: { extensions: [{ uri }] } })),
    { get: 'card.capabilities' },
  ],
  [
    'findProvidedValuesUri, its capabilities',
    (wrap) => findProvidedValuesUri({ capabilities: wrap({ extensions: [{ uri }] }) }),
    { get: 'card.capabilities.extensions' },
  ],
  [
    'findProvidedValuesUri, its extensions',
    (wrap) => findProvidedValuesUri({ capabilities: { extensions: wrap([{ uri }]) } }),
    { get: 'card.capabilities.extensions', has: 'card.capabilities.extensions[0]' },
  ],
  [
    'findProvidedValuesUri, an extension',
    (wrap) => findProvidedValuesUri({ capabilities: { extensions: [{ uri: 'urn:a' }, wrap({ uri })] } }),
    { get: 'card.capabilities.extensions[1].uri' },
  ],
  [
    'extensionsHeader, a list',
    (wrap) => extensionsHeader('urn:a', wrap(['urn:b'])),
    { get: 'sources[1]', has: 'sources[1][0]' },
  ],
];

describe('a Proxy whose trap throws is a ContextValuesError naming the path, with the cause', () => {
  for (const [name, run, paths] of proxyCases) {
    it.each(TRAPS)(`${name}: %s`, (trap) => {
      const thrown = new Error(`${trap} refused`);
      const wrap: Wrap = (target) =>
        new Proxy(target, {
          [trap]: () => {
            throw thrown;
          },
        });
      const error = failure(() => run(wrap));
      const path = paths[trap];
      if (path === undefined) expect(error).toBeUndefined();
      else expectContextValuesError(error, path, thrown);
    });
  }

  it('a revoked Proxy anywhere is a ContextValuesError', () => {
    const revoked = (): object => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    };
    expectContextValuesError(
      failure(() => snapshotContextValues(revoked())),
      'values',
    );
    expectContextValuesError(
      failure(() => withProvidedValues({ parts: [revoked()] }, {}, uri)),
      'message.parts[0].kind',
    );
    expectContextValuesError(
      failure(() => readProvidedValues(revoked(), uri)),
      'message.parts',
    );
    expectContextValuesError(
      failure(() => findProvidedValuesUri({ capabilities: { extensions: revoked() as never } })),
      'card.capabilities.extensions',
    );
    expectContextValuesError(
      failure(() => extensionsHeader(revoked() as never)),
      'sources[0]',
    );
  });
});

// Each reader, with a throwing getter at the top of what it reads and nested inside it.
const getterCases: ReadonlyArray<[string, (broken: Error) => unknown, string]> = [
  ['snapshotContextValues, top level', (e) => snapshotContextValues(throwsAt('a', e)), 'values.a'],
  [
    'snapshotContextValues, in an array',
    (e) => snapshotContextValues({ list: Object.defineProperty([1], 0, { get: thrower(e) }) }),
    'values.list[0]',
  ],
  [
    'assertContextValues, nested',
    (e) => assertContextValues({ user: throwsAt('tier', e) }),
    'values.user.tier',
  ],
  ['snapshotJsonValue, top level', (e) => snapshotJsonValue(throwsAt('a', e)), 'value.a'],
  ['assertJsonValue, nested', (e) => assertJsonValue([[throwsAt('a', e)]], 'input'), 'input[0][0].a'],
  ['providedValuesPart, nested', (e) => providedValuesPart({ user: throwsAt('a', e) }, uri), 'values.user.a'],
  ['withProvidedValues, values', (e) => withProvidedValues({ parts: [] }, throwsAt('a', e), uri), 'values.a'],
  [
    'withProvidedValues, message.parts',
    (e) => withProvidedValues(throwsAt('parts', e) as never, {}, uri),
    'message.parts',
  ],
  [
    'withProvidedValues, another property of the message',
    (e) => withProvidedValues(Object.assign(throwsAt('metadata', e), { parts: [] }), {}, uri),
    'message.metadata',
  ],
  [
    'withProvidedValues, a part',
    (e) => withProvidedValues({ parts: [throwsAt('kind', e)] }, {}, uri),
    'message.parts[0].kind',
  ],
  [
    'readProvidedValues, message.parts',
    (e) => readProvidedValues(throwsAt('parts', e), uri),
    'message.parts',
  ],
  [
    'readProvidedValues, a part’s metadata',
    (e) => readProvidedValues({ parts: [Object.assign(throwsAt('metadata', e), { kind: 'data' })] }, uri),
    'message.parts[0].metadata',
  ],
  [
    'readProvidedValues, the data',
    (e) =>
      readProvidedValues(
        { parts: [Object.assign(throwsAt('data', e), { kind: 'data', metadata: flag })] },
        uri,
      ),
    'message.parts[0].data',
  ],
  [
    'readProvidedValues, nested in the data',
    (e) =>
      readProvidedValues(
        { parts: [{ kind: 'data', data: { user: throwsAt('name', e) }, metadata: flag }] },
        uri,
      ),
    'message.parts[0].data.user.name',
  ],
  ['isProvidedValuesPart', (e) => isProvidedValuesPart(throwsAt('kind', e), uri), 'part.kind'],
  [
    'findProvidedValuesUri, the card',
    (e) => findProvidedValuesUri(throwsAt('capabilities', e)),
    'card.capabilities',
  ],
  [
    'findProvidedValuesUri, an extension',
    (e) => findProvidedValuesUri({ capabilities: { extensions: [throwsAt('uri', e)] } }),
    'card.capabilities.extensions[0].uri',
  ],
  [
    'extensionsHeader, a list item',
    (e) => extensionsHeader(Object.defineProperty(['urn:a', 'urn:b'], 1, { get: thrower(e) })),
    'sources[0][1]',
  ],
];

function thrower(error: unknown): () => never {
  return () => {
    throw error;
  };
}

/** An object whose one property, `key`, has a getter that throws `error`; typed as the reader wants it. */
function throwsAt(key: string, error: unknown): ContextValues {
  return Object.defineProperty({}, key, { get: thrower(error), enumerable: true });
}

describe('a getter that throws is a ContextValuesError naming the path, with the cause', () => {
  it.each(getterCases)('%s', (_name, run, path) => {
    const broken = new Error('getter broke');
    const error = failure(() => run(broken));
    expectContextValuesError(error, path, broken);
    expect((error as Error).message).toBe(`${path} could not be read: getter broke`);
  });

  it.each([
    ['a Proxy whose traps throw', new Proxy({}, { get: thrower(1), getPrototypeOf: thrower(2) })],
    ['an object that cannot be made a string', Object.create(null) as object],
    ['a RangeError Proxy with a throwing message', new Proxy(new RangeError('x'), { get: thrower(3) })],
    ['a symbol', Symbol('thrown')],
    ['a function', () => 'source code'],
  ])('whatever the getter throws (%s) becomes the cause, untouched', (_name, thrown) => {
    for (const [, run, path] of getterCases) {
      expectContextValuesError(
        failure(() => run(thrown as Error)),
        path,
        thrown,
      );
    }
  });

  it('a ContextValuesError a getter throws is wrapped, so the path is the one read', () => {
    const inner = new ContextValuesError('elsewhere', 'other.path');
    expectContextValuesError(
      failure(() => snapshotContextValues({ user: throwsAt('a', inner) })),
      'values.user.a',
      inner,
    );
  });
});

describe('values read once', () => {
  it('readProvidedValues reads each value once and returns what it checked', () => {
    let reads = 0;
    const data = {
      get name() {
        reads += 1;
        if (reads > 1) throw new Error('read twice');
        return 'Ada';
      },
    };
    expect(readProvidedValues({ parts: [{ kind: 'data', data, metadata: flag }] }, uri)).toEqual({
      name: 'Ada',
    });
    expect(reads).toBe(1);
  });

  it('withProvidedValues reads each property of the message once, and keeps the others as they are', () => {
    let reads = 0;
    const message = {
      kind: 'message',
      get parts() {
        reads += 1;
        if (reads > 1) throw new Error('read twice');
        return [{ kind: 'text', text: 'hi' }];
      },
      [Symbol.for('tag')]: 'kept',
    };
    const next = withProvidedValues(message, { a: 1 }, uri);
    expect(reads).toBe(1);
    expect(next).toEqual({
      kind: 'message',
      parts: [{ kind: 'text', text: 'hi' }, providedValuesPart({ a: 1 }, uri)],
      [Symbol.for('tag')]: 'kept',
    });
    expect(Object.keys(next)).toEqual(['kind', 'parts']);
  });

  it('withProvidedValues keeps a __proto__ property of the message a plain key', () => {
    const message = JSON.parse('{"__proto__": {"admin": true}, "parts": []}') as { parts: unknown[] };
    const next = withProvidedValues(message, {}, uri);
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(Object.keys(next)).toEqual(['__proto__', 'parts']);
  });
});

describe('arguments of the wrong kind are ContextValuesErrors, never a raw TypeError', () => {
  const unprintable = { toString: thrower(new Error('no')), [Symbol.toPrimitive]: thrower(new Error('no')) };

  it.each([
    ['withProvidedValues without a message', () => withProvidedValues(null as never, {}, uri), 'message'],
    ['withProvidedValues without parts', () => withProvidedValues({} as never, {}, uri), 'message.parts'],
    ['findProvidedValuesUri without a card', () => findProvidedValuesUri(null as never), 'card'],
    ['extensionsHeader with a number', () => extensionsHeader(42 as never), 'sources[0]'],
    [
      'extensionsHeader with a nested list',
      () => extensionsHeader('a', ['b', ['c']] as never),
      'sources[1][1]',
    ],
  ])('%s', (_name, run, path) => {
    expectContextValuesError(failure(run), path);
  });

  it.each([
    ['providedValuesUri', () => providedValuesUri(unprintable as never)],
    ['providedValuesPart', () => providedValuesPart({}, unprintable as never)],
    [
      'isProvidedValuesPart',
      () => isProvidedValuesPart({ kind: 'data', metadata: {} }, unprintable as never),
    ],
  ])('%s with a URI whose toString throws', (_name, run) => {
    const error = failure(run);
    expect(error).toBeInstanceOf(ContextValuesError);
    expect((error as Error).message).toMatch(/not a string/);
  });

  it('a long run of slashes in a card is read in linear time', () => {
    const card = { capabilities: { extensions: [{ uri: `${'/'.repeat(200_000)}x` }] } };
    const started = performance.now();
    expect(findProvidedValuesUri(card)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
