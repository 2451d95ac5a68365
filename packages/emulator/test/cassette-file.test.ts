import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cassette, CassetteEntry } from '../src/cassette/har.js';
import { redactEntry } from '../src/cassette/redact.js';
import { CassetteFile } from '../src/node/record/cassette-file.js';

function entry(body: string, events?: string[]): CassetteEntry {
  return {
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method: 'GET',
      url: 'https://dw.example/api/qna/v1/systems',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'authorization', value: 'SSWS key-1234' }],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }],
      content: { size: body.length, mimeType: 'application/json', text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
    ...(events ? { _events: events.map((data, k) => ({ time: k, data })) } : {}),
  };
}

describe('redaction of recorded bodies', () => {
  it('keeps a body that names no secret byte for byte', () => {
    const body = '{ "b": 1,  "a": [ "x" ] }';
    expect(redactEntry(entry(body)).response.content.text).toBe(body);
  });

  it('redacts secret-named members, in bodies and events, however the name is written', () => {
    const body = '{"params":{"API_KEY":"sk-1","n":1},"Access-Token":"t-2"}';
    const escaped = '{"params":{"api_\\u006bey":"sk-3"}}';
    const redacted = redactEntry(entry(body, [escaped]));
    expect(JSON.parse(redacted.response.content.text ?? '')).toEqual({
      params: { API_KEY: '[redacted]', n: 1 },
      'Access-Token': '[redacted]',
    });
    expect(JSON.parse(redacted._events?.[0]?.data ?? '')).toEqual({ params: { api_key: '[redacted]' } });
  });

  it('scrubs the presented credential wherever it appears, headers included', () => {
    const redacted = redactEntry(entry('{"echo":"key-1234"}'));
    expect(redacted.response.content.text).toBe('{"echo":"[redacted]"}');
    expect(redacted.request.headers).toEqual([{ name: 'authorization', value: 'SSWS [redacted]' }]);
  });
});

describe('the cassette file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dwz-cassette-file-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is a whole HAR file after each append, and keeps what it had when opened again', async () => {
    const path = join(dir, 'c.har');
    const file = await CassetteFile.open(path);
    const read = async () => (JSON.parse(await readFile(path, 'utf8')) as Cassette).log.entries;
    expect(await read()).toEqual([]);
    file.append(entry('{"n":1}'));
    expect((await read()).map((e) => e.response.content.text)).toEqual(['{"n":1}']);
    file.append(entry('{"n":2}'));
    expect((await read()).map((e) => e.response.content.text)).toEqual(['{"n":1}', '{"n":2}']);
    expect(file.entries).toBe(2);
    expect(file.bytes).toBe(Buffer.byteLength(await readFile(path, 'utf8')));
    await file.close();

    const again = await CassetteFile.open(path);
    again.append(entry('{"n":3}'));
    await again.close();
    expect((await read()).map((e) => e.response.content.text)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });
});
