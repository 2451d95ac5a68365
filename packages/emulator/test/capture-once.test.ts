import { gzipSync } from 'node:zlib';
import { startEmulator } from '@dataworkz/emulator';
import { REDACTED } from '@dataworkz/redaction';
import { describe, expect, it } from 'vitest';
import { leaks, TABLE_KEY } from '../../redaction/test/support/credential-table.js';
import { ExchangeCapture } from '../src/capture/exchange.js';
import { ExchangeLog } from '../src/console/exchange-log.js';
import type { Incoming } from '../src/pipeline.js';
import { createService } from '../src/service.js';
import { settle } from '../src/settings.js';
import { cassetteOf, recordedEntry } from './support/cassette.js';

// One exchange is captured and redacted once, in every mode: the pipeline hands the same capture to
// the console's log and to the request record, which render it and read nothing raw. Seen from the
// listeners' side: each is handed one capture per exchange, the same object, and both show the same
// redacted values.

const queryToken = 'query-token-of-a-caller-5150';
const bodySecret = 'body-password-of-a-caller-6262';
const path = '/api/qna/v1/systems/sys-capture/answer';
const target = `${path}?access_token=${queryToken}&keyword=kept`;
const maxRecorded = 1000;
const body = JSON.stringify({ question: 'what?', password: bodySecret });

/** The cassette replay mode answers from: the request as recorded, its secrets redacted. */
const cassette = cassetteOf(
  recordedEntry({
    method: 'POST',
    url: `https://dw.example${path}?access_token=%5BREDACTED%5D&keyword=kept`,
    body: '{"question":"what?","password":"[REDACTED]"}',
    response: { headers: [{ name: 'content-type', value: 'application/json' }], text: '{"answer":"ok"}' },
  }),
);

/** One request as the node:http adapter hands it over: the key in a header sent twice, the others in the query and body. */
function incoming(sent = body, type = 'application/json'): Incoming {
  const bytes = new TextEncoder().encode(sent);
  const rawHeaders = [
    'Authorization',
    `SSWS ${TABLE_KEY}`,
    'X-Api-Key',
    TABLE_KEY,
    'X-Api-Key',
    TABLE_KEY,
    'Content-Type',
    type,
  ];
  return {
    method: 'POST',
    target,
    headers: {
      authorization: `SSWS ${TABLE_KEY}`,
      'x-api-key': `${TABLE_KEY}, ${TABLE_KEY}`,
      'content-type': type,
    },
    rawHeaders,
    origin: 'http://127.0.0.1',
    local: true,
    readBody: (limit) => ({ bytes: bytes.subarray(0, limit), size: bytes.length }),
    onGone: () => {},
  };
}

/** Several exchanges at once, through the service as the adapters drive it, watched from the listeners' side. */
async function exchanges(mode: 'emulate' | 'replay', count: number, sent?: () => Incoming) {
  const settings = settle({
    apiKeys: [TABLE_KEY],
    limits: { maxRecordedBodyBytes: maxRecorded },
    ...(mode === 'replay' ? { replay: cassette, replayIgnore: ['access_token', 'password'] } : {}),
  });
  const log = new ExchangeLog(settings.limits);
  const service = createService(settings, {
    console: {
      assets: new Map(),
      exchanges: log,
      about: () => ({ version: '', ranking: 'off', listening: '' }),
    },
  });
  // What each listener is handed, as the production wiring hands it.
  const toConsole: unknown[] = [];
  const toRecord: unknown[] = [];
  const begin = log.begin.bind(log);
  log.begin = (requestId, capture) => {
    toConsole.push(capture);
    return begin(requestId, capture);
  };
  const record = service.recorder.record.bind(service.recorder);
  service.recorder.record = (...args) => {
    toRecord.push(args[6]);
    record(...args);
  };
  await service.ready;
  const answers = await Promise.all(
    Array.from({ length: count }, () => service.respond((sent ?? incoming)())),
  );
  await service.closeAll();
  return { answers, entries: log.list(), views: service.recorder.redacted(), toConsole, toRecord };
}

describe.each(['emulate', 'replay'] as const)('in %s mode', (mode) => {
  it('captures each exchange once and hands the same record to the console and the request record', async () => {
    const count = 4;
    const { answers, entries, views, toConsole, toRecord } = await exchanges(mode, count);
    if (mode === 'replay') expect(answers.map((answer) => answer.status)).toEqual(Array(count).fill(200));
    // One capture per exchange, handed to each listener once: the same object on both sides.
    expect(toConsole).toHaveLength(count);
    expect(new Set(toConsole).size).toBe(count);
    expect(new Set(toRecord)).toEqual(new Set(toConsole));
    expect(toRecord).toHaveLength(count);
    for (const capture of toConsole) {
      expect(capture).toBeInstanceOf(ExchangeCapture);
      const { headers } = (capture as ExchangeCapture).head;
      // Both surfaces render the one redacted record: its headers are the same object, not an equal copy.
      const entry = entries.find((e) => e.requestHeaders === headers);
      const view = views.find((v) => v.headers === headers);
      expect(entry).toBeDefined();
      expect(view).toBeDefined();
      expect(entry?.path).toBe(view?.path);
      expect(entry?.query).toBe(view?.query);
      expect(entry?.requestBody).toBe(view?.body);
      expect(entry?.requestBytes).toBe(view?.bodyBytes);
      expect(view?.headers['x-api-key']).toBe(`${REDACTED}, ${REDACTED}`);
      expect(view?.headers.authorization).toBe(`SSWS ${REDACTED}`);
      expect(view?.query).toBe(`access_token=${encodeURIComponent(REDACTED)}&keyword=kept`);
      expect(view?.body).toBe(JSON.stringify({ question: 'what?', password: REDACTED }));
    }
    const shown = JSON.stringify([entries, views]);
    expect(leaks(shown)).toEqual([]);
    expect(shown).not.toContain(queryToken);
    expect(shown).not.toContain(bodySecret);
  });
});

it('shows no part of a key that the cut at the body limit would split, on either surface', async () => {
  const half = Math.floor(TABLE_KEY.length / 2);
  const text = `${'x'.repeat(maxRecorded - half)}${TABLE_KEY}${'y'.repeat(2000)}`;
  const { entries, views } = await exchanges('emulate', 1, () => incoming(text, 'text/plain'));
  const [entry] = entries;
  const [view] = views;
  expect(view?.bodyBytes).toBe(text.length);
  expect(view?.body).toHaveLength(maxRecorded);
  expect(entry?.requestBody).toBe(view?.body);
  expect(leaks(JSON.stringify([entry, view]))).toEqual([]);
});

it('shows a gzip-encoded request body decoded and redacted in the request record served over HTTP', async () => {
  const emu = await startEmulator({ apiKeys: [TABLE_KEY] });
  try {
    const sent = await fetch(`${emu.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `SSWS ${TABLE_KEY}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync(body),
    });
    await sent.arrayBuffer();
    const listed = await fetch(`${emu.url}/_emulator/requests`, {
      headers: { authorization: `SSWS ${TABLE_KEY}` },
    });
    const [view] = (await listed.json()) as { body: string }[];
    expect(view?.body).toBe(JSON.stringify({ question: 'what?', password: REDACTED }));
  } finally {
    await emu.close();
  }
});
