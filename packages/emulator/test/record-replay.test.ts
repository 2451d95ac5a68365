import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Cassette,
  CassetteError,
  createEmulator,
  type Emulator,
  seed,
  startEmulator,
} from '@dataworkz/emulator';
import { streamRequest } from '@dataworkz/measure';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The deployment's credential: a test greps the cassette for it.
const realKey = 'real-deployment-key-9f3c';
const queryToken = 'query-token-7d21';
const headerKey = 'header-key-5e88';
const systemId = seed.systems.productDocs.systemId;
const agentId = seed.agents.orderStatus.agentId;

let dir: string;
let deployment: Emulator;
let recorder: Emulator;
let cassettePath: string;

async function readEvents(response: Response): Promise<unknown[]> {
  const events: unknown[] = [];
  const parser = createParser({ onEvent: (event) => events.push(JSON.parse(event.data)) });
  const decoder = new TextDecoder();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    parser.feed(decoder.decode(next.value, { stream: true }));
  }
  return events;
}

const auth = { authorization: `SSWS ${realKey}` };

async function session(base: string): Promise<{ systems: unknown; answer: unknown; events: unknown[] }> {
  const systems = await (await fetch(`${base}/api/qna/v1/systems`, { headers: auth })).json();
  const answer = await (
    await fetch(
      `${base}/api/qna/v1/systems/${systemId}/answer?questionText=How+do+I+reset+my+password%3F&llmProviderId=${seed.llms.productDocsSystem}&api_key=${queryToken}`,
      { headers: auth },
    )
  ).json();
  const stream = await fetch(`${base}/api/agents/v1/a2a/${agentId}/stream`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', cookie: `session=${realKey}` },
    body: streamRequest('Where is order 1001?'),
  });
  return { systems, answer, events: await readEvents(stream) };
}

let recorded: Awaited<ReturnType<typeof session>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dwz-cassette-'));
  cassettePath = join(dir, 'session.har');
  deployment = await startEmulator({ apiKeys: [realKey] });
  recorder = await startEmulator({ record: deployment.url, cassette: cassettePath });
  recorded = await session(recorder.url);
  // A key in another header, and the same key where nothing names it a secret.
  await (
    await fetch(`${recorder.url}/api/agents/v1/?note=${headerKey}`, {
      headers: { ...auth, 'x-api-key': headerKey },
    })
  ).text();
  await recorder.close();
  await deployment.close();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function cassette(): Promise<Cassette> {
  return JSON.parse(await readFile(cassettePath, 'utf8')) as Cassette;
}

describe('record mode, against a deployment on loopback', () => {
  it('returns the deployment’s responses, the stream event by event', () => {
    expect(recorded.systems).toMatchObject({ [systemId]: expect.any(String) });
    expect(recorded.answer).toMatchObject({ status: 'COMPLETED', systemId });
    expect(recorded.events.length).toBeGreaterThan(3);
    expect(recorded.events.at(-1)).toMatchObject({ result: { kind: 'status-update', final: true } });
  });

  it('writes each exchange to a HAR 1.2 cassette, the stream’s events with their times', async () => {
    const har = await cassette();
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual([
      'GET /api/qna/v1/systems',
      `GET /api/qna/v1/systems/${systemId}/answer`,
      `POST /api/agents/v1/a2a/${agentId}/stream`,
      'GET /api/agents/v1/',
    ]);
    const stream = har.log.entries[2];
    expect(stream?.response.content.mimeType).toMatch(/^text\/event-stream/);
    expect(stream?._events?.map((e) => JSON.parse(e.data))).toEqual(recorded.events);
    expect(stream?._events?.every((e) => typeof e.time === 'number')).toBe(true);
  });

  it('never writes a credential to the cassette', async () => {
    const text = await readFile(cassettePath, 'utf8');
    expect(text).not.toContain(realKey);
    expect(text).not.toContain(queryToken);
    expect(text).not.toContain(headerKey);
    const first = (await cassette()).log.entries[0];
    expect(first?.request.headers).toContainEqual({ name: 'authorization', value: 'SSWS [redacted]' });
  });

  it('answers 502 with the reason when the deployment cannot be reached, and records nothing', async () => {
    const stopped = await startEmulator({ apiKeys: ['k-1234'] });
    const url = stopped.url;
    await stopped.close();
    const path = join(dir, 'unreachable.har');
    const proxy = await startEmulator({ record: url, cassette: path });
    try {
      const response = await fetch(`${proxy.url}/api/agents/v1/`, { headers: auth });
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ code: 'DEPLOYMENT_UNREACHABLE' });
    } finally {
      await proxy.close();
    }
    expect((JSON.parse(await readFile(path, 'utf8')) as Cassette).log.entries).toEqual([]);
  });
});

describe('replay mode, with the deployment stopped', () => {
  it('serves the recorded session, the agent stream included', async () => {
    const replayer = await startEmulator({ replay: cassettePath, replaySpeed: 0, apiKeys: [realKey] });
    try {
      expect(replayer.mode).toBe('replaying');
      const replayed = await session(replayer.url);
      expect(replayed).toEqual(recorded);
    } finally {
      await replayer.close();
    }
  });

  it('asks for the credentials emulating asks for: a wrong or missing key gets its 401', async () => {
    const replayer = await startEmulator({ replay: cassettePath, replaySpeed: 0, apiKeys: [realKey] });
    try {
      const url = `${replayer.url}/api/qna/v1/systems`;
      const wrong = await fetch(url, { headers: { authorization: 'SSWS not-the-key' } });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid API key' });
      const missing = await fetch(url);
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({ message: 'Missing Authorization header' });
      const right = await fetch(url, { headers: auth });
      expect(right.status).toBe(200);
      expect(await right.json()).toEqual(recorded.systems);
    } finally {
      await replayer.close();
    }
  });

  it('refuses an unrecorded request, naming the closest recorded one', async () => {
    const replayer = await startEmulator({ replay: cassettePath, apiKeys: [realKey] });
    try {
      const response = await fetch(
        `${replayer.url}/api/qna/v1/systems/${systemId}/answer?questionText=Something+else&llmProviderId=${seed.llms.productDocsSystem}`,
        { headers: auth },
      );
      expect(response.status).toBe(404);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe('NOT_RECORDED');
      expect(body.message).toContain(
        `closest recorded request is GET /api/qna/v1/systems/${systemId}/answer`,
      );
      expect(body.message).toContain('query questionText');
    } finally {
      await replayer.close();
    }
  });

  it('answers from the emulator instead with replayFallback emulate', async () => {
    const replayer = await startEmulator({
      replay: cassettePath,
      replayFallback: 'emulate',
      apiKeys: ['k-fallback'],
    });
    try {
      const response = await fetch(`${replayer.url}/api/agents/v1/llm-providers`, {
        headers: { authorization: 'SSWS k-fallback' },
      });
      expect(response.status).toBe(200);
    } finally {
      await replayer.close();
    }
  });

  it('serves a cassette object in process, as a test fixture', async () => {
    const emu = createEmulator({ replay: await cassette(), replaySpeed: 0, apiKeys: [realKey] });
    const response = await emu.fetch('https://dw.example/api/qna/v1/systems', { headers: auth });
    expect(await response.json()).toEqual(recorded.systems);
    await emu.close();
  });

  it('skips the query parameters and body members named in replayIgnore', async () => {
    const emu = createEmulator({
      replay: await cassette(),
      replaySpeed: 0,
      replayIgnore: ['questionText'],
      apiKeys: [realKey],
    });
    const response = await emu.fetch(
      `https://dw.example/api/qna/v1/systems/${systemId}/answer?questionText=Anything&llmProviderId=${seed.llms.productDocsSystem}&api_key=mine`,
      { headers: auth },
    );
    expect(await response.json()).toEqual(recorded.answer);
    // Without the default list, a stream request's fresh ids no longer match.
    const strict = createEmulator({
      replay: await cassette(),
      replaySpeed: 0,
      replayIgnore: [],
      apiKeys: [realKey],
    });
    const stream = await strict.fetch(`https://dw.example/api/agents/v1/a2a/${agentId}/stream`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: streamRequest('Where is order 1001?'),
    });
    expect(stream.status).toBe(404);
    // The first member that differs is named: the JSON-RPC id each request makes up.
    expect(((await stream.json()) as { message: string }).message).toContain('(it differs in body at id)');
    await Promise.all([emu.close(), strict.close()]);
  });

  it('a replay miss names the first JSON path where the bodies differ', async () => {
    const emu = createEmulator({ replay: await cassette(), replaySpeed: 0, apiKeys: [realKey] });
    const stream = await emu.fetch(`https://dw.example/api/agents/v1/a2a/${agentId}/stream`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: streamRequest('Where is order 1002?'),
    });
    expect(stream.status).toBe(404);
    expect(((await stream.json()) as { message: string }).message).toContain(
      '(it differs in body at params.message.parts[0].text)',
    );
    await emu.close();
  });

  it('refuses a file that is not a cassette with a CassetteError', async () => {
    await expect(startEmulator({ replay: join(dir, 'missing.har') })).rejects.toBeInstanceOf(CassetteError);
    expect(() => createEmulator({ replay: { log: {} } as unknown as Cassette })).toThrow(CassetteError);
  });
});
