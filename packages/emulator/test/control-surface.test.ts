import { createEmulator, type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, obj } from './support/http.js';

// One table of control operations, served at /_emulator/ (a credential always) and to the console's
// page at /console/api/ (a page on this machine, by the access guard's rule).
const apiKey = 'control-surface-key-0123456789';
let emu: Emulator;
let host: string;

beforeAll(async () => {
  emu = await startEmulator({ console: true, apiKeys: [apiKey] });
  host = new URL(emu.url).host;
});

afterAll(async () => {
  await emu?.close();
});

/** A request as the console's page sends it from a browser on this machine: no credential. */
function fromPage(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('origin', `http://${host}`);
  headers.set('sec-fetch-site', 'same-origin');
  return fetch(`${emu.url}${path}`, { ...init, headers });
}

describe('the control surface', () => {
  it('serves each operation at both prefixes: a rate limit set at one is read at the other', async () => {
    const set = await call(emu, '/_emulator/rate-limit', {
      method: 'PUT',
      body: JSON.stringify({ perSecond: 5, burst: 7 }),
    });
    expect(set.status).toBe(200);
    const read = await fromPage('/console/api/faults');
    expect(await read.json()).toMatchObject({ rateLimit: { perSecond: 5, burst: 7 }, faults: [] });
    // Clearing the faults at either prefix puts the rate limit back to the one the emulator started with.
    const cleared = await fromPage('/console/api/faults', { method: 'DELETE' });
    expect(await cleared.json()).toMatchObject({ active: 0, rateLimit: { perSecond: null, burst: null } });
    expect(obj((await call(emu, '/_emulator/faults')).json)).toMatchObject({
      rateLimit: { perSecond: null },
    });
  });

  it('keeps one request log, read at either prefix, and the requests kept for tests at either too', async () => {
    await call(emu, '/_emulator/log', { method: 'DELETE' });
    await call(emu, '/_emulator/requests', { method: 'DELETE' });
    await call(emu, '/api/agents/v1/?from=test');
    const viaControl = obj((await call(emu, '/_emulator/log')).json).entries as {
      path: string;
      query: string;
    }[];
    const viaPage = ((await (await fromPage('/console/api/log')).json()) as { entries: unknown[] }).entries;
    expect(viaControl.map((e) => `${e.path}?${e.query}`)).toContain('/api/agents/v1/?from=test');
    // The control read itself is in the log only at /_emulator/ (the console's own requests never are).
    expect(viaPage.length).toBeGreaterThanOrEqual(viaControl.length);
    const requests = (await (await fromPage('/console/api/requests')).json()) as { query: string }[];
    expect(requests.map((r) => r.query)).toEqual(['from=test']);
  });

  it('answers 405 for a method an operation lacks, 404 for a name it lacks, 401 without a credential', async () => {
    expect((await call(emu, '/_emulator/requests', { method: 'PUT' })).status).toBe(405);
    expect((await call(emu, '/_emulator/nothing-here')).status).toBe(404);
    expect(
      (await call(emu, '/_emulator/faults', { headers: { authorization: 'SSWS wrong-key-123456' } })).status,
    ).toBe(401);
    // The page's JSON bodies must say so (a form on another site cannot send that type).
    const form = await fromPage('/console/api/rate-limit', {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ perSecond: 1 }),
    });
    expect(form.status).toBe(415);
  });

  it('says the log needs the console when the emulator keeps none', async () => {
    const plain = await startEmulator({ apiKeys: [apiKey] });
    try {
      const res = await call(plain, '/_emulator/log');
      expect(res.status).toBe(409);
      expect(obj(res.json).code).toBe('NO_REQUEST_LOG');
      expect(obj((await call(plain, '/_emulator/overview')).json)).toMatchObject({
        listening: '',
        operationIds: expect.arrayContaining(['listAgents']),
      });
    } finally {
      await plain.close();
    }
  });

  it('is served in process too, through the same pipeline', async () => {
    const inProcess = createEmulator({ apiKeys: [apiKey] });
    try {
      const url = 'https://dw.example/_emulator/faults';
      expect((await inProcess.fetch(url)).status).toBe(401);
      const added = await inProcess.fetch(url, {
        method: 'POST',
        headers: { authorization: `SSWS ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ route: 'listAgents', status: 503 }),
      });
      expect(await added.json()).toMatchObject({ added: 1, active: 1 });
      const faulted = await inProcess.fetch('https://dw.example/api/agents/v1/', {
        headers: { authorization: `SSWS ${apiKey}` },
      });
      expect(faulted.status).toBe(503);
    } finally {
      await inProcess.close();
    }
  });

  it('resets to the state it started in: the session forgotten, the faults it started with back', async () => {
    const started = { route: 'listAgents' as const, status: 503, times: 5 };
    const emulator = createEmulator({ apiKeys: [apiKey], faults: [started] });
    const send = (path: string, init: RequestInit = {}) =>
      emulator.fetch(`https://dw.example${path}`, {
        ...init,
        headers: { authorization: `SSWS ${apiKey}`, 'content-type': 'application/json' },
      });
    try {
      const { systemId } = seed.systems.productDocs;
      const llm = seed.llms.accountDefault;
      expect(
        (await send(`/api/qna/v1/systems/${systemId}/answer?questionText=install&llmProviderId=${llm}`))
          .status,
      ).toBe(200);
      await send('/_emulator/faults', {
        method: 'POST',
        body: JSON.stringify({ route: 'getQnaSystem', status: 500 }),
      });
      await send('/_emulator/rate-limit', { method: 'PUT', body: JSON.stringify({ perSecond: 3 }) });
      const before = (await (await send('/_emulator/state')).json()) as {
        questions: unknown[];
        faults: unknown[];
      };
      expect(before.questions).toHaveLength(1);
      expect(before.faults).toHaveLength(2);

      const reset = await send('/_emulator/reset', { method: 'POST' });
      expect(await reset.json()).toMatchObject({
        reset: true,
        faults: [{ rule: started, remaining: 5 }],
        rateLimit: { perSecond: null },
      });
      const after = (await (await send('/_emulator/state')).json()) as {
        questions: unknown[];
        conversations: unknown[];
      };
      expect(after.questions).toEqual([]);
      expect(after.conversations).toEqual([]);
      expect(emulator.requests).toEqual([]);
    } finally {
      await emulator.close();
    }
  });

  it("gives the console's answers no CORS headers, even where the API allows every origin", async () => {
    const open = await startEmulator({ console: true, apiKeys: [apiKey], cors: { origins: '*' } });
    try {
      const openHost = new URL(open.url).host;
      const api = await fetch(`${open.url}/api/agents/v1/`, {
        headers: { authorization: `SSWS ${apiKey}`, origin: 'https://app.example' },
      });
      expect(api.headers.get('access-control-allow-origin')).toBe('*');
      const page = await fetch(`${open.url}/console/api/faults`, {
        headers: { origin: `http://${openHost}`, 'sec-fetch-site': 'same-origin' },
      });
      expect(page.status).toBe(200);
      expect(page.headers.get('access-control-allow-origin')).toBeNull();
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    } finally {
      await open.close();
    }
  });
});
