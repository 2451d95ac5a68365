import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, obj } from './support/http.js';
import { componentValidator } from './support/spec.js';

let emu: Emulator;
let open: Emulator;
beforeAll(async () => {
  [emu, open] = await Promise.all([
    startEmulator({
      apiKeys: ['route-key'],
      cors: { origins: ['http://localhost:5173'] },
      limits: { maxBodyBytes: 1024 },
    }),
    startEmulator({
      apiKeys: ['open-key'],
      cors: { origins: '*' },
      extensionBase: 'https://agents.example.com/',
    }),
  ]);
});
afterAll(() => Promise.all([emu.close(), open.close()]));

const isError = componentValidator('Error');

describe('routing and errors', () => {
  it.each([
    '/api/agents/v1',
    '/api/agents/v2/',
    '/api/qna/v1/systems/',
    `/api/qna/v1/systems/${seed.systems.productDocs.systemId}/unknown`,
    '/',
    '/favicon.ico',
  ])('answers 404 with the Error shape for %s', async (path) => {
    const res = await call(emu, path);
    expect(res.status).toBe(404);
    expect(isError(res.json)).toBe(true);
    expect(obj(res.json).path).toBe(path);
  });

  it.each([
    `/api/qna/v1/systems/nope`,
    `/api/qna/v1/systems/nope/filters`,
    `/api/agents/v1/a2a/nope/.well-known/agent.json`,
  ])('answers 404 for an unknown id in %s', async (path) => {
    const res = await call(emu, path);
    expect(res.status).toBe(404);
    expect(obj(res.json).message).toMatch(/^No (agent|QnA system) with id: nope$/);
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const res = await call(emu, `/api/agents/v1/a2a/${seed.agents.orderStatus.agentId}/stream`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(isError(res.json)).toBe(true);
  });

  it('decodes a percent-encoded path id before looking it up', async () => {
    const systemId = seed.systems.productDocs.systemId;
    const encoded = [...systemId].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const res = await call(emu, `/api/qna/v1/systems/${encoded}`);
    expect(res.status).toBe(200);
    expect(obj(res.json).uuid).toBe(systemId);
  });

  it('answers 405 naming every method of the path, and 404 for an extra segment', async () => {
    const agentId = seed.agents.orderStatus.agentId;
    const wrong = await call(emu, `/api/agents/v1/${agentId}/response`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    const extra = await call(emu, `/api/agents/v1/${agentId}/response/more`);
    expect(extra.status).toBe(404);
    const empty = await call(emu, '/api/qna/v1/systems//search?query=x');
    expect(empty.status).toBe(404);
  });

  it('answers 400 for a missing required query parameter', async () => {
    const res = await call(emu, `/api/qna/v1/systems/${seed.systems.productDocs.systemId}/search?filter=x`);
    expect(res.status).toBe(400);
    expect(obj(res.json)).toMatchObject({
      error: 'Bad Request',
      message: "Required request parameter 'query' is not present",
    });
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await call(emu, '/_emulator/faults', { method: 'POST', body: 'x'.repeat(5000) });
    expect(res.status).toBe(413);
    expect(isError(res.json)).toBe(true);
  });

  it('sends a request id on every response', async () => {
    const a = await call(emu, '/api/agents/v1/');
    const b = await call(emu, '/nothing');
    expect(a.headers.get('x-request-id')).toMatch(/^req-\d+$/);
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
  });

  it('builds the extension URI from the configured base', () => {
    expect(emu.extensionUri).toBe('https://dataworkz.com/agents/ext/provided-values/v1');
    expect(open.extensionUri).toBe('https://agents.example.com/agents/ext/provided-values/v1');
  });
});

describe('CORS', () => {
  const origin = 'http://localhost:5173';

  it('answers a preflight from an allowed origin without credentials', async () => {
    const res = await fetch(`${emu.url}/api/qna/v1/systems`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-a2a-extensions');
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('marks responses, errors included, for an allowed origin and exposes the retry headers', async () => {
    const ok = await call(emu, '/api/qna/v1/systems', { headers: { origin } });
    expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
    expect(ok.headers.get('access-control-expose-headers')).toContain('retry-after');
    const denied = await call(emu, '/api/qna/v1/systems', { headers: { origin, authorization: 'SSWS bad' } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('leaves other origins without CORS headers', async () => {
    const res = await call(emu, '/api/qna/v1/systems', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows any origin with *', async () => {
    const res = await call(open, '/api/qna/v1/systems', { headers: { origin: 'https://anything.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
