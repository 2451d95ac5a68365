// One emulator process, both A2A versions, chosen per request by `A2A-Version` (header, or the query
// parameter the specification allows instead): none is a v0.3 client's, `1.0` is v1.0, anything else
// is VersionNotSupportedError (-32009) naming the versions served. The card follows the same header and
// carries caching headers; the JSON-RPC endpoint also answers with a trailing slash.

import { createHash } from 'node:crypto';
import { Message, SendMessageRequest, TaskState } from '@a2a-js/sdk-v1';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerText, finalStatus, streamAll } from './support/a2a.js';
import { v1ClientFor, v1Message, v1Text } from './support/a2a-v1.js';
import { call, obj } from './support/http.js';

const orderStatus = seed.agents.orderStatus.agentId;
const stream = `/api/agents/v1/a2a/${orderStatus}/stream`;
const cardPath = `/api/agents/v1/a2a/${orderStatus}/.well-known/agent-card.json`;
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ answerArtifactChunkChars: 16 });
});
afterAll(() => emu.close());

/** A JSON-RPC request to the agent, with the headers given (the key is added). */
function post(body: unknown, headers: Record<string, string> = {}, path = stream) {
  return call(emu, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const getTask = (version?: string) =>
  post(
    { jsonrpc: '2.0', id: 'v', method: 'tasks/get', params: { id: 'no-such-task' } },
    version === undefined ? {} : { 'a2a-version': version },
  );

describe('v0.3 and v1.0 clients on one emulator', () => {
  it('serve a v0.3 client (no header) and a v1.0 client at the same time, each in its own shapes', async () => {
    const { client } = await v1ClientFor(emu, orderStatus);
    const v1Events = async () => {
      const events = [];
      for await (const event of client.sendMessageStream(
        SendMessageRequest.fromJSON({ message: Message.toJSON(v1Message('Where is order 1001?')) }),
      ))
        events.push(event);
      return events;
    };
    const [v03, v1] = await Promise.all([
      streamAll(emu, orderStatus, { text: 'Where is order 1001?' }),
      v1Events(),
    ]);
    // v0.3: `kind` on every event, string states, a `final` status update.
    expect(v03[0]?.kind).toBe('task');
    const final = finalStatus(v03);
    expect(final.status.state).toBe('completed');
    expect(answerText(final)).toMatch(/^Order 1001 for Ada Lovelace shipped/);
    // v1.0: no `kind`, enum states, the stream's end ends it.
    expect(v1[0]?.payload?.$case).toBe('task');
    const last = v1.at(-1)?.payload;
    if (last?.$case !== 'statusUpdate') throw new Error('the v1.0 stream did not end with a status update');
    expect(last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(v1Text(last.value.status?.message?.parts)).toMatch(/^Order 1001 for Ada Lovelace shipped/);
  });

  it('reads the version from the A2A-Version query parameter when no header names one', async () => {
    const asV1 = await post(
      { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } },
      {},
      `${stream}?A2A-Version=1.0`,
    );
    // v1.0's method name is known (the task is not): the request was read as v1.0.
    expect(obj(asV1.json).error).toMatchObject({ code: -32001 });
    const header = await post(
      { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } },
      { 'a2a-version': '1.0' },
      `${stream}?A2A-Version=99.0`,
    );
    expect(obj(header.json).error).toMatchObject({ code: -32001 });
  });

  it('takes no header, an empty one, and 0.3 as v0.3; 1.0 and 1.0.2 as v1.0 (a patch number does not count)', async () => {
    for (const version of [undefined, '', '0.3', '0.3.0']) {
      // tasks/get is a v0.3 method: the unknown task is reported, not the method.
      expect(obj((await getTask(version)).json).error).toMatchObject({ code: -32001 });
    }
    for (const version of ['1.0', '1.0.2']) {
      expect(obj((await getTask(version)).json).error).toMatchObject({ code: -32601 });
    }
  });
});

describe('a version not served', () => {
  it('is answered -32009 naming the versions served, whatever the method, as one JSON answer', async () => {
    for (const method of ['message/stream', 'SendMessage', 'SendStreamingMessage', 'tasks/get']) {
      const answer = await post(
        { jsonrpc: '2.0', id: 42, method, params: { message: v1Message('hi') } },
        { 'a2a-version': '99.0' },
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      const body = obj(answer.json);
      expect(body.id).toBe(42);
      expect(body.error).toMatchObject({
        code: -32009,
        message: 'A2A version 99.0 is not supported; this agent serves 1.0, 0.3',
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'VERSION_NOT_SUPPORTED',
            domain: 'a2a-protocol.org',
            metadata: { requestedVersion: '99.0', supportedVersions: '1.0,0.3' },
          },
        ],
      });
    }
  });

  it('is any version other than 0.3 and 1.0 (with or without a patch number)', async () => {
    const served = (version: string) => /^0*(?:0\.0*3|1\.0*0)(?:\.\d+)?$/.test(version);
    const versions = fc.oneof(
      fc
        .tuple(fc.nat(12), fc.nat(12), fc.option(fc.nat(9)))
        .map(([major, minor, patch]) =>
          patch === null ? `${major}.${minor}` : `${major}.${minor}.${patch}`,
        ),
      // Printable ASCII without spaces: what a header can carry unchanged.
      fc.string({
        unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
        minLength: 1,
      }),
    );
    await fc.assert(
      fc.asyncProperty(versions, async (version) => {
        const code = (obj((await getTask(version)).json).error as { code?: number }).code;
        if (served(version)) expect(code).not.toBe(-32009);
        else expect(code).toBe(-32009);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the agent card', () => {
  const card = (headers: Record<string, string> = {}, path = cardPath) => call(emu, path, { headers });

  it('is v0.3 to a request naming no version, v1.0 to one naming 1.0; v1.0 lists both interfaces', async () => {
    const v03 = obj((await card()).json);
    expect(v03).toMatchObject({ protocolVersion: '0.3.0', preferredTransport: 'JSONRPC' });
    expect(v03.url).toBe(`${emu.url}${stream}`);
    expect(v03).not.toHaveProperty('supportedInterfaces');
    for (const asked of [card({ 'a2a-version': '1.0' }), card({}, `${cardPath}?A2A-Version=1.0`)]) {
      const v1 = obj((await asked).json);
      expect(v1.supportedInterfaces).toEqual([
        { url: `${emu.url}${stream}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${emu.url}${stream}`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ]);
      expect(v1).not.toHaveProperty('url');
    }
  });

  it('carries Cache-Control with max-age, a strong ETag, and Vary: A2A-Version', async () => {
    const answer = await card();
    expect(answer.headers.get('cache-control')).toMatch(/\bmax-age=\d+/);
    expect(answer.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    expect(answer.headers.get('vary')).toMatch(/A2A-Version/);
  });

  it('answers 304 without a body when If-None-Match names its ETag, 200 when the card is another', async () => {
    const first = await card();
    const etag = first.headers.get('etag') ?? '';
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await card({ 'if-none-match': ifNoneMatch });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
    }
    // The v1.0 card is another card: another ETag, and the v0.3 card's does not stand for it.
    const v1 = await card({ 'a2a-version': '1.0', 'if-none-match': etag });
    expect(v1.status).toBe(200);
    expect(v1.headers.get('etag')).not.toBe(etag);
    // Derived from the card's bytes (so it changes exactly when the card does): a card that differs
    // (another extension base) has another.
    expect(etag).toBe(`"${createHash('sha1').update(first.text).digest('hex')}"`);
    const other = await startEmulator({ extensionBase: 'https://example.org' });
    try {
      const answer = await fetch(`${other.url}${cardPath}`, {
        headers: { authorization: `SSWS ${other.apiKey}` },
      });
      expect(answer.headers.get('etag')).toBe(
        `"${createHash('sha1')
          .update(await answer.text())
          .digest('hex')}"`,
      );
      expect(answer.headers.get('etag')).not.toBe(etag);
    } finally {
      await other.close();
    }
  });
});

describe('the JSON-RPC endpoint', () => {
  it("answers at the card's URL and with a trailing slash, in both versions", async () => {
    for (const path of [stream, `${stream}/`]) {
      const v03 = await post(
        { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'no-such-task' } },
        {},
        path,
      );
      expect(obj(v03.json).error).toMatchObject({ code: -32001 });
      const v1 = await post(
        { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } },
        { 'a2a-version': '1.0' },
        path,
      );
      expect(obj(v1.json).error).toMatchObject({ code: -32001 });
    }
    expect((await post({}, {}, `${stream}//`)).status).toBe(404);
  });
});
