import { HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import {
  ContextValuesError,
  EXTENSIONS_HEADER,
  extensionsHeader,
  findProvidedValuesUri,
  PROVIDED_VALUES_PATH,
  providedValuesUri,
} from '@dataworkz/context-values';
import { describe, expect, it } from 'vitest';

describe('providedValuesUri', () => {
  it('appends the extension path to a base, with or without a trailing slash', () => {
    expect(providedValuesUri('https://dataworkz.com')).toBe(
      'https://dataworkz.com/agents/ext/provided-values/v1',
    );
    expect(providedValuesUri('https://ext.example.org/base//')).toBe(
      `https://ext.example.org/base${PROVIDED_VALUES_PATH}`,
    );
  });

  it.each(['', 'dataworkz.com', '/relative', 'https://x.org/?q=1', 'https://x.org/#f'])(
    'rejects %j as a base',
    (base) => {
      expect(() => providedValuesUri(base)).toThrow(ContextValuesError);
    },
  );
});

describe('findProvidedValuesUri', () => {
  it('finds the advertised extension among others', () => {
    const uri = 'https://acme.example/agents/ext/provided-values/v1';
    const card = {
      capabilities: {
        extensions: [
          { uri: 'https://other.example/ext/tracing/v1' },
          null,
          { uri },
          { description: 'no uri' },
        ],
      },
    };
    expect(findProvidedValuesUri(card)).toBe(uri);
  });

  it.each([
    {},
    { capabilities: {} },
    { capabilities: { extensions: null } },
    { capabilities: { extensions: [] } },
  ])('returns undefined for a card without it: %j', (card) => {
    expect(findProvidedValuesUri(card)).toBeUndefined();
  });
});

describe('extensionsHeader', () => {
  it('is the header A2A v0.3 and the SDK use', () => {
    expect(EXTENSIONS_HEADER).toBe(HTTP_EXTENSION_HEADER);
  });

  it('merges URIs, lists and existing header values, dropping blanks and duplicates', () => {
    expect(
      extensionsHeader(
        'https://a/x, https://b/y',
        ['https://b/y', ' https://c/z '],
        undefined,
        null,
        ' , ',
        'https://a/x',
      ),
    ).toBe('https://a/x, https://b/y, https://c/z');
    expect(extensionsHeader()).toBe('');
  });
});
