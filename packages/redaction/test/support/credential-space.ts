import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { leaks } from './credential-table.js';

/**
 * The space of credential forms and places the property tests of every surface draw from: a key,
 * written in one of its forms, rides in one place of a request and one of a response (names,
 * repeats, encodings, charsets, framings), with a value under a secret name beside it. The table of
 * credential-table.ts stays the readable specification; this is the space around it.
 */

/** The fixed seed of every property over this space, so CI runs the same cases each time. */
export const SEED = Number(process.env.REDACTION_PROPERTY_SEED ?? 5505);

/** The emulator's own key, for the emulate-mode surfaces: it must not show either. */
export const EMULATOR_KEY = 'dwk_em0-own-key_for.the.record';

const secretNames = [
  'apiKeys',
  'passwords',
  'accessTokens',
  'private_key_pem',
  'bearer',
  'client_secret',
  'refresh_token',
  'apiToken',
  'x-session-token',
] as const;

const presentations = [
  'authorization',
  'x-api-key',
  'repeated authorization',
  'repeated x-api-key',
  'cookie',
  'access_token query',
] as const;

const forms = [
  'raw',
  'percent-encoded',
  'percent-encoded in part',
  'percent-encoded twice',
  'base64',
  'base64url',
  'base64 of SSWS <key>',
  'JSON \\u escapes',
] as const;

const charsets = [
  'utf-8',
  'utf-8 with BOM',
  'utf-16le',
  'utf-16be',
  'utf-16 with BOM',
  'Charset="UTF-8"',
] as const;

const requestPlaces = [
  'header value',
  'header name',
  'query name',
  'query value',
  'path segment',
  'media-type parameter',
  'JSON body',
  'form field',
  'multipart part',
] as const;

const responsePlaces = [
  'header value',
  'header name',
  'set-cookie',
  'media-type parameter',
  'reason phrase',
  'JSON body',
  'event stream',
  'form body',
  'multipart body',
] as const;

const eventTypes = ['text/event-stream', 'Text/Event-Stream', 'text/event-stream; charset=utf-8'] as const;
const lineEnds = ['\n', '\r', '\r\n'] as const;

export interface Case {
  key: string;
  presentation: (typeof presentations)[number];
  form: (typeof forms)[number];
  /** Which character `percent-encoded in part` encodes. */
  at: number;
  requestPlace: (typeof requestPlaces)[number];
  responsePlace: (typeof responsePlaces)[number];
  charset: (typeof charsets)[number];
  secretName: (typeof secretNames)[number];
  eventType: (typeof eventTypes)[number];
  lineEnd: (typeof lineEnds)[number];
}

const keyArb = fc
  .stringMatching(/^[A-Za-z0-9_.~-]{14,28}$/)
  .filter((s) => new Set(s).size > 6)
  .map((s) => `dwk${s}`);

export const caseArb: fc.Arbitrary<Case> = fc.record({
  key: keyArb,
  presentation: fc.constantFrom(...presentations),
  form: fc.constantFrom(...forms),
  at: fc.nat(40),
  requestPlace: fc.constantFrom(...requestPlaces),
  responsePlace: fc.constantFrom(...responsePlaces),
  charset: fc.constantFrom(...charsets),
  secretName: fc.constantFrom(...secretNames),
  eventType: fc.constantFrom(...eventTypes),
  lineEnd: fc.constantFrom(...lineEnds),
});

/** The key written in the case's form. */
function written(c: Case): string {
  const { key } = c;
  const hex = (ch: string) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
  switch (c.form) {
    case 'raw':
      return key;
    case 'percent-encoded':
      return [...key].map(hex).join('');
    case 'percent-encoded in part': {
      const i = c.at % key.length;
      return `${key.slice(0, i)}${hex(key[i] as string)}${key.slice(i + 1)}`;
    }
    case 'percent-encoded twice': {
      const i = c.at % key.length;
      return `${key.slice(0, i)}${hex(key[i] as string).replace('%', '%25')}${key.slice(i + 1)}`;
    }
    case 'base64':
      return btoa(key);
    case 'base64url':
      return btoa(key).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    case 'base64 of SSWS <key>':
      return btoa(`SSWS ${key}`);
    case 'JSON \\u escapes':
      return [...key].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  }
}

/** A value under a secret name: never the key, so only its name can give it away. */
const hiddenOf = (c: Case) => `hidden-${c.key.slice(3, 11)}-value`;

/** JSON text as bytes in the case's charset, with the `Content-Type` that says so (or does not). */
function inCharset(json: string, c: Case, extra = ''): { type: string; bytes: Buffer } {
  const le = Buffer.from(json, 'utf16le');
  switch (c.charset) {
    case 'utf-8':
      return { type: `application/json${extra}`, bytes: Buffer.from(json) };
    case 'utf-8 with BOM':
      return {
        type: `application/json${extra}`,
        bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]),
      };
    case 'utf-16le':
      return { type: `application/json; charset=utf-16le${extra}`, bytes: le };
    case 'utf-16be':
      return { type: `application/json; charset=utf-16be${extra}`, bytes: Buffer.from(le).swap16() };
    case 'utf-16 with BOM':
      return { type: `application/json${extra}`, bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), le]) };
    case 'Charset="UTF-8"':
      return { type: `Application/JSON; Charset="UTF-8"${extra}`, bytes: Buffer.from(json) };
  }
}

const boundary = 'pr0perty-b0undary';

function multipart(fields: [string, string][]): Buffer {
  let out = '';
  for (const [name, value] of fields) {
    out += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  return Buffer.from(`${out}--${boundary}--\r\n`);
}

/** The request of a case: target, headers (repeats as arrays) and body. */
export function requestOf(
  c: Case,
  emulated: boolean,
): {
  target: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
} {
  const w = written(c);
  const hidden = hiddenOf(c);
  const headers: Record<string, string | string[]> = {};
  const query = new URLSearchParams({ keyword: 'visible-keyword' });
  // Emulating, the key the emulator accepts goes in `Authorization`; the case's key rides elsewhere.
  const presentation = emulated && c.presentation.includes('authorization') ? 'x-api-key' : c.presentation;
  switch (presentation) {
    case 'authorization':
      headers.authorization = `SSWS ${c.key}`;
      break;
    case 'repeated authorization':
      headers.authorization = ['SSWS dwk_a-decoy-key-1234', `SSWS ${c.key}`];
      break;
    case 'x-api-key':
      headers['x-api-key'] = c.key;
      break;
    case 'repeated x-api-key':
      headers['x-api-key'] = ['dwk_a-decoy-key-5678', c.key];
      break;
    case 'cookie':
      headers.cookie = `sid=${c.key}; theme=dark`;
      break;
    case 'access_token query':
      query.set('access_token', c.key);
      break;
  }
  if (emulated) headers.authorization = `SSWS ${EMULATOR_KEY}`;
  let path = '/api/qna/v1/systems';
  let body: Buffer | undefined;
  let queryText = query.toString();
  switch (c.requestPlace) {
    case 'header value':
      headers['x-echo'] = w;
      break;
    case 'header name':
      headers[`x-seen-${w.replace(/[^A-Za-z0-9_.~%-]/g, '')}`] = '1';
      break;
    case 'query name':
      queryText += `&${w}=1&${c.secretName}=${hidden}`;
      break;
    case 'query value':
      queryText += `&note=${w}`;
      break;
    case 'path segment':
      path = `/api/qna/v1/systems/${w}`;
      break;
    case 'media-type parameter':
      headers['content-type'] = `application/json; x-seen=${w}; ${c.secretName}=${hidden}`;
      body = Buffer.from('{}');
      break;
    case 'JSON body': {
      const json = `{"echo":"${w}","${c.secretName}":"${hidden}","keyword":"visible-keyword"}`;
      const { type, bytes } = inCharset(json, c);
      headers['content-type'] = type;
      body = bytes;
      break;
    }
    case 'form field':
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = Buffer.from(`note=${w}&${encodeURIComponent(c.secretName)}=${hidden}&grant_type=x`);
      break;
    case 'multipart part':
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      body = multipart([
        ['note', w],
        [c.secretName, hidden],
      ]);
      break;
  }
  return { target: `${path}?${queryText}`, headers, ...(body ? { body } : {}) };
}

/** The deployment's answer to a case: the key (and a hidden value) in the response's place. */
export function answer(c: Case, res: ServerResponse, status: number): void {
  const w = written(c);
  const hidden = hiddenOf(c);
  const json = `{"jsonrpc":"2.0","echo":"${w}","${c.secretName}":"${hidden}","keyword":"visible-keyword"}`;
  const plain = () => ({ type: 'application/json', bytes: Buffer.from('{"keyword":"visible-keyword"}') });
  let reason = 'Answered';
  const headers: [string, string][] = [];
  let body: { type: string; bytes: Buffer } = plain();
  switch (c.responsePlace) {
    case 'header value':
      headers.push(['x-echo', w]);
      break;
    case 'header name':
      headers.push([`x-seen-${w.replace(/[^A-Za-z0-9_.~%-]/g, '')}`, '1']);
      break;
    case 'set-cookie':
      headers.push(['set-cookie', `sid=${hidden}; Path=/`], ['set-cookie', `k=${w}; Path=/`]);
      break;
    case 'media-type parameter':
      body = { type: `application/json; x-seen=${w}; ${c.secretName}=${hidden}`, bytes: plain().bytes };
      break;
    case 'reason phrase':
      reason = `Seen ${w}`;
      break;
    case 'JSON body':
      body = inCharset(json, c);
      break;
    case 'event stream': {
      const eol = c.lineEnd;
      // One event's JSON over two `data:` lines, which only an event-stream parser joins.
      const text =
        `: comment${eol}id: 1${eol}data: {"jsonrpc":"2.0","id":1,${eol}` +
        `data: "result":{"kind":"task","${c.secretName}":"${hidden}","echo":"${w}"}}${eol}${eol}`;
      body = { type: c.eventType, bytes: Buffer.from(text) };
      break;
    }
    case 'form body':
      body = {
        type: 'application/x-www-form-urlencoded',
        bytes: Buffer.from(`note=${w}&${encodeURIComponent(c.secretName)}=${hidden}`),
      };
      break;
    case 'multipart body':
      body = {
        type: `multipart/form-data; boundary=${boundary}`,
        bytes: multipart([
          ['note', w],
          [c.secretName, hidden],
        ]),
      };
      break;
  }
  res.writeHead(
    status,
    reason,
    [...headers, ['content-type', body.type], ['content-length', String(body.bytes.length)]].flat(),
  );
  res.end(body.bytes);
}

/** Which forms of the key an output holds, its UTF-16 readings and escapes included; and the hidden value. */
export function found(output: string, c: Case): string[] {
  const out = leaks(output, c.key);
  const unescaped = output.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) =>
    String.fromCharCode(Number.parseInt(h, 16)),
  );
  if (unescaped.replaceAll('\0', '').includes(c.key)) out.push('UTF-16');
  if (output.includes(hiddenOf(c))) out.push(`the value of ${c.secretName}`);
  if (leaks(output, EMULATOR_KEY).length > 0) out.push("the emulator's own key");
  return out;
}

/** Where in an output the key first shows, in any of its forms: the failing example's evidence. */
export function around(output: string, c: Case): string {
  const texts = [written(c), c.key, c.key.slice(0, Math.ceil(c.key.length / 2)), hiddenOf(c)];
  for (const text of texts) {
    const at = output.indexOf(text);
    if (at >= 0) return output.slice(Math.max(0, at - 120), at + text.length + 40);
  }
  return '';
}
