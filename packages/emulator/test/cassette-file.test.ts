import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cassette, CassetteEntry } from '../src/cassette/har.js';
import { CassetteFile } from '../src/node/record/cassette-file.js';
import { type ForwardedExchange, harEntry } from '../src/node/record/har-entry.js';
import { BodyCapture } from '../src/node/record/recorded-body.js';

/** A recorded exchange with this JSON answer (or these events), through the cassette's capture. */
function entry(body: string, events?: string[]): CassetteEntry {
  const response = new BodyCapture(64 * 1024, false);
  response.push(Buffer.from(body));
  const exchange: ForwardedExchange = {
    startedAt: 0,
    wait: 1,
    receive: 0,
    request: {
      method: 'GET',
      url: 'https://dw.example/api/qna/v1/systems',
      target: '/api/qna/v1/systems',
      httpVersion: '1.1',
      headers: [['authorization', 'SSWS key-1234']],
      body: new BodyCapture(64 * 1024, false),
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: '1.1',
      headers: [['content-type', events ? 'text/event-stream' : 'application/json']],
      bytes: body.length,
      events: events?.map((data, k) => ({ time: k, data })),
      body: events ? undefined : response,
    },
  };
  return harEntry(exchange, { secrets: [], maxBytes: 64 * 1024, keepUnreadable: false }).entry;
}

describe('redaction of recorded bodies', () => {
  it('keeps a body that names no secret byte for byte', () => {
    const body = '{ "b": 1,  "a": [ "x" ] }';
    expect(entry(body).response.content.text).toBe(body);
  });

  it('redacts secret-named members, in bodies and events, however the name is written', () => {
    const body = '{"params":{"API_KEY":"sk-1","n":1},"Access-Token":"t-2"}';
    const escaped = '{"params":{"api_\\u006bey":"sk-3"}}';
    expect(JSON.parse(entry(body).response.content.text ?? '')).toEqual({
      params: { API_KEY: '[redacted]', n: 1 },
      'Access-Token': '[redacted]',
    });
    expect(JSON.parse(entry('', [escaped])._events?.[0]?.data ?? '')).toEqual({
      params: { api_key: '[redacted]' },
    });
  });

  it('scrubs the presented credential wherever it appears, headers included', () => {
    const redacted = entry('{"echo":"key-1234"}');
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
