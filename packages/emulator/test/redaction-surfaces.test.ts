import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { type Cassette, type Emulator, startEmulator } from '@dataworkz/emulator';
import { until } from '@dataworkz/measure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  credentialForms,
  hidden,
  leaks,
  nameLeaks,
  publicNames,
  secretBody,
  secretHeaders,
  secretQuery,
  TABLE_KEY,
  visible,
} from '../../redaction/test/support/credential-table.js';
import { driftSummary } from '../src/drift-report.js';

// Every surface that shows or stores traffic, driven by the one table of secret names and credential
// forms: a hostile deployment on loopback echoes the caller's key in every place a value can ride.

const maxBodyBytes = 4096;
const pdf = Buffer.from(`%PDF-1.7 key=${TABLE_KEY} ${btoa(`SSWS ${TABLE_KEY}`)} %%EOF`);

/** A JSON text carrying every secret member and every form of the key, escapes written as escapes. */
function echoJson(): string {
  const forms = credentialForms()
    .map(({ form, text }) => `${JSON.stringify(form)}:"${text}"`)
    .join(',');
  return `{"forms":{${forms}},"body":${JSON.stringify(secretBody())}}`;
}

/** A body past the limit whose key straddles the limit's byte. */
function straddling(json: boolean): string {
  const half = Math.floor(TABLE_KEY.length / 2);
  const pad = 'x'.repeat(maxBodyBytes - half - (json ? 10 : 0));
  return json ? `{"text":"${pad}${TABLE_KEY}${'y'.repeat(2000)}"}` : `${pad}${TABLE_KEY}${'y'.repeat(2000)}`;
}

function deployment(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  req.resume();
  req.on('end', () => {
    if (url.pathname === '/api/qna/v1/systems') {
      const enc = url.searchParams.get('enc') ?? 'identity';
      const encoders: Record<string, (bytes: Buffer) => Buffer> = {
        gzip: gzipSync,
        deflate: deflateSync,
        br: brotliCompressSync,
      };
      const encode = encoders[enc];
      const body = encode ? encode(Buffer.from(echoJson())) : Buffer.from(echoJson());
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(encode ? { 'content-encoding': enc } : {}),
        'content-length': body.length,
      });
      res.end(body);
    } else if (url.pathname.startsWith('/api/unknown/')) {
      res.writeHead(401, `Unauthorized key ${TABLE_KEY}`, {
        'content-type': 'application/json',
        location: `https://dw.example/cb?access_token=${hidden('access_token')}&k=${TABLE_KEY}#access_token=${hidden('access_token')}`,
        'set-cookie': `sid=${hidden('set-cookie')}; Path=/`,
        'Set-Cookie2': hidden('Set-Cookie2'),
        'x-goog-iap-jwt-assertion': hidden('x-goog-iap-jwt-assertion'),
        'x-echo': btoa(`SSWS ${TABLE_KEY}`),
      });
      res.end(echoJson());
    } else if (url.pathname.endsWith('/stream')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`id: ${TABLE_KEY}\nevent: ${TABLE_KEY}\ndata: ${echoJson()}\n\n`);
      res.end(
        `id: 2\ndata: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","apiToken":"${hidden('apiToken')}"}}\n\n`,
      );
    } else if (url.pathname.endsWith('/document')) {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(pdf);
    } else if (url.pathname.endsWith('/search')) {
      const json = url.searchParams.get('big') === 'json';
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'text/plain' });
      res.end(straddling(json));
    } else {
      res.writeHead(404).end();
    }
  });
}

/** Every secret header of the table, each holding its hidden value, and the key in `Authorization`. */
function tableHeaders(): Record<string, string> {
  const headers: Record<string, string> = { authorization: `SSWS ${TABLE_KEY}` };
  for (const name of secretHeaders) headers[name] = hidden(name);
  headers.cookie = `sid=${hidden('cookie')}`;
  return headers;
}

/** Every secret query parameter of the table and every public one, and the key in a form of each kind. */
function tableQuery(): string {
  const pairs = [
    ...secretQuery.map((name) => [name, hidden(name)]),
    ...publicNames.map((name) => [name, visible(name)]),
    ...credentialForms().map(({ form, text }) => [form.replace(/\W/g, ''), text]),
  ];
  return new URLSearchParams(pairs).toString();
}

/** Reads a response's text as it comes until it ends or is aborted. */
async function readAll(response: Response, sink: (text: string) => void): Promise<void> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read())
      sink(decoder.decode(next.value));
  } catch {
    // Aborted: the test has what it waited for.
  }
}

let dir: string;
let fake: Server;
let base: string;

async function record(
  options: { recordUnreadableBodies?: boolean } = {},
  calls: (recorder: Emulator) => Promise<void>,
): Promise<{ cassette: Cassette; text: string; drift: string; summary: string; events: string }> {
  const path = join(dir, `${crypto.randomUUID()}.har`);
  const recorder = await startEmulator({
    record: base,
    cassette: path,
    console: true,
    limits: { maxBodyBytes },
    ...options,
  });
  const host = new URL(recorder.url).host;
  // The console's live channel while recording: its state events carry the drift found so far.
  const abort = new AbortController();
  const live = await fetch(`${recorder.url}/console/api/events`, {
    headers: { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
    signal: abort.signal,
  });
  let events = '';
  const reading = readAll(live, (text) => {
    events += text;
  });
  await calls(recorder);
  const report = recorder.drift;
  // The state event that follows the last exchange carries the drift of every one of them.
  await until(
    () => events.includes(`"drift":{"responses":${report?.responses}`),
    'the drift report on the live events',
  );
  abort.abort();
  await reading;
  await recorder.close();
  const text = await readFile(path, 'utf8');
  return {
    cassette: JSON.parse(text) as Cassette,
    text,
    drift: JSON.stringify(report),
    summary: report ? driftSummary(report).join('\n') : '',
    events,
  };
}

async function hostileSession(recorder: Emulator): Promise<void> {
  const headers = tableHeaders();
  for (const enc of ['identity', 'gzip', 'deflate', 'br']) {
    await (
      await fetch(`${recorder.url}/api/qna/v1/systems?enc=${enc}&${tableQuery()}`, { headers })
    ).arrayBuffer();
  }
  await (
    await fetch(`${recorder.url}/api/unknown/${TABLE_KEY}/x?${tableQuery()}`, { headers, redirect: 'manual' })
  ).arrayBuffer();
  await (
    await fetch(`${recorder.url}/api/agents/v1/a2a/a1/stream`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: echoJson(),
    })
  ).arrayBuffer();
  await (await fetch(`${recorder.url}/api/qna/v1/systems/s1/document`, { headers })).arrayBuffer();
  for (const big of ['json', 'text']) {
    await (await fetch(`${recorder.url}/api/qna/v1/systems/s1/search?big=${big}`, { headers })).arrayBuffer();
  }
}

let hostile: Awaited<ReturnType<typeof record>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dwz-redaction-'));
  fake = createServer(deployment);
  fake.listen(0, '127.0.0.1');
  await new Promise((resolve) => fake.once('listening', resolve));
  base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  hostile = await record({}, hostileSession);
});

afterAll(async () => {
  await new Promise((resolve) => fake.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('recording against a deployment that echoes every credential', () => {
  const surfaces = ['cassette', 'drift report', 'summary printed on stop', 'console events'] as const;
  const outputOf = (surface: (typeof surfaces)[number]) =>
    ({
      cassette: hostile.text,
      'drift report': hostile.drift,
      'summary printed on stop': hostile.summary,
      'console events': hostile.events,
    })[surface];

  it.each(surfaces)('leaves no form of the key in the %s', (surface) => {
    expect(outputOf(surface).length).toBeGreaterThan(0);
    expect(leaks(outputOf(surface))).toEqual([]);
  });

  it.each(surfaces)('leaves no value of a secret-named header, parameter or member in the %s', (surface) => {
    expect(nameLeaks(outputOf(surface)).shown).toEqual([]);
  });

  it('keeps the values of public names, so the recording still replays', () => {
    expect(nameLeaks(hostile.text).lost).toEqual([]);
  });

  it('redacts the reason phrase, the Location, every field of an event and the path', () => {
    const entries = hostile.cassette.log.entries;
    const unauthorized = entries.find((e) => e.response.status === 401);
    expect(unauthorized?.response.statusText).toBe('Unauthorized key [redacted]');
    expect(unauthorized?.request.url).toContain('/api/unknown/[redacted]/x');
    const location = unauthorized?.response.headers.find((h) => h.name === 'location')?.value;
    expect(location).toBe(
      'https://dw.example/cb?access_token=%5Bredacted%5D&k=[redacted]#access_token=%5Bredacted%5D',
    );
    const [first] = entries.find((e) => e._events)?._events ?? [];
    expect(first?.id).toBe('[redacted]');
    expect(first?.event).toBe('[redacted]');
    expect(hostile.drift).toContain('/api/unknown/[redacted]/x');
  });

  it('records gzip, deflate and br bodies decoded, and the drift check reads their JSON', () => {
    const listed = hostile.cassette.log.entries.filter((e) =>
      /\/api\/qna\/v1\/systems\?enc=(gzip|deflate|br)&/.test(e.request.url),
    );
    expect(listed).toHaveLength(3);
    for (const entry of listed) {
      expect(JSON.parse(entry.response.content.text ?? '').body.params.keyword).toBe(visible('keyword'));
      expect(entry.response.content.compression).toBeGreaterThan(0);
      expect(entry.response.headers.map((h) => h.name)).not.toContain('content-encoding');
    }
    expect(
      JSON.parse(hostile.drift).operations.listQnaSystems.findings.map((f: { kind: string }) => f.kind),
    ).not.toContain('invalid-json');
  });

  it('keeps a binary body as its size and SHA-256, and JSON cut by the limit likewise; cuts text after redacting', () => {
    const entries = hostile.cassette.log.entries;
    const document = entries.find((e) => e.request.url.endsWith('/document'))?.response.content;
    expect(document?.text).toBeUndefined();
    expect(document?._sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    expect(document?.size).toBe(pdf.length);
    const json = entries.find((e) => e.request.url.endsWith('big=json'))?.response.content;
    expect(json?.text).toBeUndefined();
    expect(json?._sha256).toMatch(/^[0-9a-f]{64}$/);
    const text = entries.find((e) => e.request.url.endsWith('big=text'))?.response.content;
    expect(Buffer.byteLength(text?.text ?? '')).toBeLessThanOrEqual(maxBodyBytes);
    expect(text?.text).toContain('x[redacted]');
  });

  it('replays the decoded bodies without a content encoding', async () => {
    const path = join(dir, 'replayed.har');
    await (await import('node:fs/promises')).writeFile(path, hostile.text);
    const replay = await startEmulator({ replay: path, apiKeys: [TABLE_KEY] });
    try {
      const res = await fetch(`${replay.url}/api/qna/v1/systems?enc=br&${tableQuery()}`, {
        headers: tableHeaders(),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect((await res.json()).body.params.maxTokens).toBe(visible('maxTokens'));
    } finally {
      await replay.close();
    }
  });
});

describe('recordUnreadableBodies', () => {
  it('keeps the bytes of a binary body, scrubbed of the key', async () => {
    const { cassette } = await record({ recordUnreadableBodies: true }, async (recorder) => {
      await (
        await fetch(`${recorder.url}/api/qna/v1/systems/s1/document`, { headers: tableHeaders() })
      ).arrayBuffer();
    });
    const content = cassette.log.entries[0]?.response.content;
    expect(content?.encoding).toBe('base64');
    const bytes = Buffer.from(content?.text ?? '', 'base64').toString('latin1');
    expect(bytes).toContain('%PDF-1.7 key=[redacted]');
    expect(leaks(bytes)).toEqual([]);
  });
});

describe('the console of an emulator that serves the API itself', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ console: true, apiKeys: [TABLE_KEY] });
  });
  afterAll(() => emu.close());

  it('shows no form of the key and no secret-named value in its log, entries or events', async () => {
    const host = new URL(emu.url).host;
    const page = { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' };
    const abort = new AbortController();
    const live = await fetch(`${emu.url}/console/api/events`, { headers: page, signal: abort.signal });
    let events = '';
    const reading = readAll(live, (text) => {
      events += text;
    });
    await (
      await fetch(`${emu.url}/api/qna/v1/systems/${TABLE_KEY}?${tableQuery()}`, { headers: tableHeaders() })
    ).arrayBuffer();
    await (
      await fetch(`${emu.url}/api/agents/v1/a2a/${TABLE_KEY}/stream`, {
        method: 'POST',
        headers: { ...tableHeaders(), 'content-type': 'application/json' },
        body: echoJson(),
      })
    ).arrayBuffer();
    const list = await (await fetch(`${emu.url}/console/api/log`, { headers: page })).text();
    const ids = (JSON.parse(list).entries as { id: number }[]).map((e) => e.id);
    expect(ids).toHaveLength(2);
    const details = await Promise.all(
      ids.map(async (id) => (await fetch(`${emu.url}/console/api/log/${id}`, { headers: page })).text()),
    );
    // Each entry's event as it ended (a stream's after its last event).
    await until(() => events.split('"state":"done"').length > 2, 'both states done on the live events');
    abort.abort();
    await reading;
    for (const output of [list, ...details, events]) {
      expect(leaks(output)).toEqual([]);
      expect(nameLeaks(output).shown).toEqual([]);
    }
    expect(details.join('')).toContain(visible('keyword'));
  });
});
