import { connect } from 'node:net';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['hostile-key'], limits: { maxBodyBytes: 64 * 1024 } });
});
afterAll(() => emu.close());

const agentId = seed.agents.orderStatus.agentId;
const systemId = seed.systems.productDocs.systemId;
const streamPath = `/api/agents/v1/a2a/${agentId}/stream`;

/** Sends raw bytes and returns the status line's code (or 0 when the server closed without answering). */
function rawRequest(port: number, bytes: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error('no answer'));
    });
    socket.on('data', (d) => {
      received += d.toString('latin1');
    });
    socket.on('error', () => resolve(0));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)));
    socket.end(bytes);
  });
}

describe('hostile input never gets a 5xx', () => {
  it.each([
    ['not JSON', '{"jsonrpc":'],
    ['a JSON string', '"hello"'],
    ['null', 'null'],
    ['an empty body', ''],
  ])('answers a stream body that is %s with a JSON-RPC error', async (_name, body) => {
    const res = await call(emu, streamPath, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
  });

  it.each([
    ['no method', { jsonrpc: '2.0', id: 1 }],
    ['an unknown method', { jsonrpc: '2.0', id: 1, method: 'message/explode', params: {} }],
    ['the wrong version', { jsonrpc: '1.0', id: 1, method: 'message/stream', params: {} }],
    ['params not an object', { jsonrpc: '2.0', id: 1, method: 'message/stream', params: 5 }],
    [
      'a message without parts',
      { jsonrpc: '2.0', id: 1, method: 'message/stream', params: { message: { kind: 'message' } } },
    ],
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'message/stream' }]],
  ])('answers bad JSON-RPC (%s) with a JSON-RPC error or a 400', async (_name, body) => {
    const res = await call(emu, streamPath, { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBeLessThan(500);
    if (res.status !== 200) return;
    // A JSON-RPC error arrives as a JSON body, or as the only event of a stream the SDK already opened.
    const error = res.json ?? JSON.parse(/^data: (.*)$/m.exec(res.text)?.[1] ?? 'null');
    expect(error).toMatchObject({
      jsonrpc: '2.0',
      error: { code: expect.any(Number), message: expect.any(String) },
    });
  });

  it('refuses a huge body with 413', async () => {
    const res = await call(emu, streamPath, { method: 'POST', body: 'x'.repeat(3 * 1024 * 1024) });
    expect(res.status).toBe(413);
  });

  it.each([
    ['a header without a colon', 'GET /api/agents/v1/ HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n'],
    ['a control character in a header', 'GET /api/agents/v1/ HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n'],
    ['a garbage request line', 'HELLO\r\n\r\n'],
    ['a bad content-length', 'POST /api/agents/v1/ HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
  ])('answers %s with 400', async (_name, bytes) => {
    const port = Number(new URL(emu.url).port);
    expect(await rawRequest(port, bytes)).toBe(400);
  });

  it('answers a bad percent-encoding in a path id with 400', async () => {
    const res = await call(emu, '/api/qna/v1/systems/%E0%A4%A');
    expect(res.status).toBe(400);
  });

  it('answers random paths, query strings and headers on every route without a 5xx', async () => {
    const routes = [
      '/api/agents/v1/',
      `/api/agents/v1/${agentId}/response`,
      `/api/qna/v1/systems/${systemId}/search`,
      `/api/qna/v1/systems/${systemId}/answer`,
      `/api/qna/v1/systems/${systemId}/document`,
      `/api/qna/v1/systems/${systemId}/filters`,
      streamPath,
      '/api/qna/v1/systems/%zz',
    ];
    const queryKeys = [
      'query',
      'questionText',
      'userText',
      'llmProviderId',
      'filter',
      'properties',
      'documentId',
      'detail',
      'llmId',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'),
        fc.array(fc.tuple(fc.constantFrom(...queryKeys), fc.string({ maxLength: 40 })), { maxLength: 5 }),
        fc.string({ maxLength: 30 }),
        fc.oneof(fc.constant(''), fc.json({ maxDepth: 3 })),
        fc.constantFrom(`SSWS ${emu.apiKey}`, 'SSWS', 'Bearer x.y.z', 'garbage', ''),
        async (path, method, params, rawQuery, body, authorization) => {
          const query = new URLSearchParams(params).toString() + (rawQuery ? `&${encodeURI(rawQuery)}` : '');
          const res = await fetch(`${emu.url}${path}?${query}`, {
            method,
            headers: { authorization, 'x-a2a-extensions': rawQuery.replace(/[^\x20-\x7e]/g, '') },
            ...(method === 'GET' ? {} : { body }),
            signal: AbortSignal.timeout(5000),
          });
          await res.arrayBuffer();
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
