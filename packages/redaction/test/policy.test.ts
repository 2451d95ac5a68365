import { readFileSync } from 'node:fs';
import { isSecretName, presentedCredentials, REDACTED, Redaction } from '@dataworkz/redaction';
import { describe, expect, it } from 'vitest';
import {
  credentialForms,
  leaks,
  nameLeaks,
  publicNames,
  secretBody,
  secretHeaders,
  secretMembers,
  secretQuery,
  TABLE_KEY,
} from './support/credential-table.js';

describe('secret names, judged by their words', () => {
  it.each([...secretMembers, ...secretHeaders, ...secretQuery])('%s is secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(publicNames)('%s is not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });

  it("names none of the spec's fields, but its credential header, secret (recordings replay as recorded)", () => {
    const spec = readFileSync(new URL('../../../spec/openapi.yaml', import.meta.url), 'utf8');
    const names = new Set([...spec.matchAll(/^\s+([A-Za-z_][\w-]*):/gm)].map((m) => m[1] as string));
    const secret = [...names].filter(isSecretName).sort();
    // Scheme names of the security declarations, which the walk does not judge (see `declarations`).
    expect(secret).toEqual(['bearerJwt', 'sswsApiKey']);
  });
});

describe('Redaction', () => {
  const redaction = new Redaction([TABLE_KEY]);

  it('redacts every secret-named member whole, whatever its type, and keeps the public ones', () => {
    const out = redaction.body(JSON.stringify(secretBody()));
    expect(nameLeaks(out)).toEqual({ shown: [], lost: [] });
    expect(JSON.parse(out).params.credentials).toBe(REDACTED);
  });

  it.each(credentialForms())('replaces the key written $form in a JSON body', ({ text }) => {
    const out = redaction.body(`{"echo":"${text.replaceAll('"', '\\"')}","n":1}`);
    expect(leaks(out)).toEqual([]);
    expect(JSON.parse(out).n).toBe(1);
  });

  it.each(credentialForms())('replaces the key written $form in plain text', ({ text }) => {
    expect(leaks(redaction.text(`before ${text} after`))).toEqual([]);
  });

  it('leaves a body without secrets byte for byte', () => {
    const text = '{ "answer" : "tokens and keywords", "maxTokens": 10 }';
    expect(redaction.body(text)).toBe(text);
  });

  it('judges query and fragment parameters by name, and scrubs the path', () => {
    const url = `https://u:p@dw.example/api/${TABLE_KEY}/x?keyword=k&api_key=a1b2c3d4&jwt=e&x=${encodeURIComponent(TABLE_KEY)}#access_token=abcdefgh&state=s`;
    const out = redaction.url(url);
    expect(out).toBe(
      'https://dw.example/api/[redacted]/x?keyword=k&api_key=%5Bredacted%5D&jwt=%5Bredacted%5D&x=[redacted]#access_token=%5Bredacted%5D&state=s',
    );
  });

  it('keeps an Authorization scheme, redacts secret headers, reads a Location as a URL', () => {
    expect(redaction.header('Authorization', `SSWS ${TABLE_KEY}`)).toBe('SSWS [redacted]');
    expect(redaction.header('Set-Cookie2', 'a=b')).toBe(REDACTED);
    expect(redaction.header('location', '/done?access_token=abc&x=1')).toBe(
      '/done?access_token=%5Bredacted%5D&x=1',
    );
    expect(redaction.header('x-request-id', 'r-1')).toBe('r-1');
  });

  it('replaces the key in bytes, raw and base64', () => {
    const bytes = new TextEncoder().encode(`%PDF key=${TABLE_KEY} ${btoa(`SSWS ${TABLE_KEY}`)}`);
    const out = new TextDecoder().decode(redaction.bytes(bytes));
    expect(leaks(out)).toEqual([]);
  });

  it('redacts secrets of 8 characters and more by value; shorter ones only by name', () => {
    const short = new Redaction(['dev']);
    expect(short.text('develop')).toBe('develop');
  });
});

describe('presentedCredentials', () => {
  it('takes the credential after the scheme, secret headers, cookies and secret query values', () => {
    const found = presentedCredentials(
      [
        ['Authorization', 'Bearer jwt-value'],
        ['x-auth-token', 'header-value'],
        ['cookie', 'sid=cookie-value; theme=dark'],
        ['accept', 'application/json'],
      ],
      [
        ['access_token', 'query-value'],
        ['keyword', 'kept'],
      ],
    );
    expect(found).toEqual(['jwt-value', 'header-value', 'cookie-value', 'dark', 'query-value']);
  });

  it('takes the password out of a Basic credential too', () => {
    expect(presentedCredentials([['authorization', `Basic ${btoa('ada:pa55word-basic')}`]])).toEqual([
      btoa('ada:pa55word-basic'),
      'pa55word-basic',
    ]);
  });
});

describe('the forms issue 47 left out', () => {
  const redaction = new Redaction([TABLE_KEY]);
  /** The key with its first character percent-encoded: `%64wk_...`. */
  const partly = `%${TABLE_KEY.charCodeAt(0).toString(16)}${TABLE_KEY.slice(1)}`;

  it.each([
    'apiKeys',
    'passwords',
    'accessTokens',
    'private_key_pem',
    'bearer',
    'refresh_tokens',
    'client_secret_b64',
    'accesstoken',
    'x-bearer',
  ])('%s is secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(['bearerFormat', 'maxTokens', 'pageTokens', 'keywords', 'publicKeyPem', 'monkey'])(
    '%s is not',
    (name) => {
      expect(isSecretName(name)).toBe(false);
    },
  );

  it('reads a key percent-encoded in part, in a path, a query name and plain text', () => {
    for (const text of [`/api/qna/v1/systems/${partly}/x`, `?${partly}=1`, `seen ${partly}.`]) {
      expect(leaks(redaction.text(text)), text).toEqual([]);
    }
    expect(redaction.text(`/api/qna/v1/systems/${partly}`)).toBe('/api/qna/v1/systems/[redacted]');
    // Encoded twice, and three times.
    const twice = partly.replace('%', '%25');
    expect(redaction.text(`/x/${twice}`)).toBe('/x/[redacted]');
    expect(redaction.text(`/x/${twice.replace('%', '%25')}`)).toBe('/x/[redacted]');
    expect(redaction.text('/api/qna/v1/systems/a%20b')).toBe('/api/qna/v1/systems/a%20b');
  });

  it('finds the key in UTF-16 text read as UTF-8, and in UTF-16 bytes of either order', () => {
    const le = new Uint8Array(Buffer.from(`{"echo":"${TABLE_KEY}"}`, 'utf16le'));
    const be = new Uint8Array(le.length);
    for (let i = 0; i < le.length; i += 2) [be[i], be[i + 1]] = [le[i + 1] as number, le[i] as number];
    for (const bytes of [le, be]) {
      expect(leaks(new TextDecoder().decode(redaction.bytes(bytes)).replaceAll('\0', ''))).toEqual([]);
      expect(redaction.text(new TextDecoder().decode(bytes)).replaceAll('\0', '')).not.toContain(TABLE_KEY);
    }
  });

  it('judges media-type parameters and form fields by name', () => {
    expect(redaction.header('Content-Type', 'application/json; charset=utf-8; api_key=abc12345')).toBe(
      'application/json; charset=utf-8; api_key=[redacted]',
    );
    expect(redaction.mediaType(`text/plain; x="${TABLE_KEY}"`)).toBe('text/plain; x="[redacted]"');
    expect(redaction.form('client_secret=s3cr3t-v4lue&refresh_token=r3fr3sh&grant_type=x')).toBe(
      'client_secret=%5Bredacted%5D&refresh_token=%5Bredacted%5D&grant_type=x',
    );
  });

  it('takes every credential of a repeated Authorization or secret header, joined or not', () => {
    const found = presentedCredentials([
      ['authorization', 'SSWS first-key-1, SSWS second-key-2'],
      ['x-api-key', 'third-key-3, fourth-key-4'],
    ]);
    expect(found).toEqual(
      expect.arrayContaining(['first-key-1', 'second-key-2', 'third-key-3', 'fourth-key-4']),
    );
  });
});
