import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { finalStatus, type StreamEvent, streamAll, transportFor, userMessage } from './support/a2a.js';
import { call, obj, q } from './support/http.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({
    apiKeys: ['fault-key'],
    faults: [{ route: 'listQnaFilters', status: 429, headers: { 'retry-after': '2' } }],
  });
});
afterAll(() => emu.close());
afterEach(() => emu.faults.clear());

const systemId = seed.systems.productDocs.systemId;
const searchPath = `/api/qna/v1/systems/${systemId}/search?${q({ query: 'backup' })}`;
const raw = (path: string, init: RequestInit = {}) =>
  fetch(`${emu.url}${path}`, {
    ...init,
    headers: { authorization: `SSWS ${emu.apiKey}`, ...init.headers },
    signal: AbortSignal.timeout(10_000),
  });

describe('fault injection', () => {
  it('applies faults given at start', async () => {
    const res = await call(emu, `/api/qna/v1/systems/${systemId}/filters`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(obj(res.json)).toMatchObject({ status: 429, error: 'Too Many Requests' });
    expect((await call(emu, `/api/qna/v1/systems/${systemId}/filters`)).status).toBe(200);
  });

  it('answers a status with headers for as many requests as `times`, then recovers', async () => {
    emu.faults.add({
      route: 'searchQnaSystem',
      times: 2,
      status: 503,
      headers: { 'retry-after-ms': '10', 'x-should-retry': 'true' },
    });
    const first = await call(emu, searchPath);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after-ms')).toBe('10');
    expect(first.headers.get('x-should-retry')).toBe('true');
    expect((await call(emu, searchPath)).status).toBe(503);
    expect((await call(emu, searchPath)).status).toBe(200);
  });

  it('matches the route by operationId and leaves other routes alone', async () => {
    emu.faults.add({ route: 'answerQnaQuestion', status: 500 });
    expect((await call(emu, searchPath)).status).toBe(200);
    expect((await call(emu, '/api/agents/v1/')).status).toBe(200);
    const answer = await call(
      emu,
      `/api/qna/v1/systems/${systemId}/answer?${q({ questionText: 'backup', llmProviderId: seed.llms.accountDefault })}`,
    );
    expect(answer.status).toBe(500);
  });

  it('applies rules in order of addition, `*` matching every API route', async () => {
    emu.faults.add({ route: '*', status: 502 });
    emu.faults.add({ route: 'listAgents', status: 504 });
    expect((await call(emu, '/api/agents/v1/')).status).toBe(502);
    expect((await call(emu, '/api/agents/v1/')).status).toBe(504);
    expect((await call(emu, '/api/agents/v1/')).status).toBe(200);
  });

  it('sends a custom body and content type', async () => {
    emu.faults.add({
      route: 'listAgents',
      status: 502,
      body: '<html>Bad gateway</html>',
      contentType: 'text/html',
    });
    const res = await call(emu, '/api/agents/v1/');
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(res.text).toBe('<html>Bad gateway</html>');
  });

  it('delays a request and then answers it normally', async () => {
    emu.faults.add({ route: 'listAgents', latencyMs: 50 });
    const res = await call(emu, '/api/agents/v1/');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
  });

  it('drops the connection before any header', async () => {
    emu.faults.add({ route: 'listAgents', drop: 'before-headers' });
    await expect(raw('/api/agents/v1/')).rejects.toThrow(TypeError);
    expect((await call(emu, '/api/agents/v1/')).status).toBe(200);
  });

  it('drops the connection in the middle of a body', async () => {
    emu.faults.add({ route: 'searchQnaSystem', drop: 'during-body' });
    const res = await raw(searchPath);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('drops the connection in the middle of a stream', async () => {
    emu.faults.add({ route: 'streamAgent', drop: 'during-body' });
    await expect(
      streamAll(emu, seed.agents.orderStatus.agentId, { text: 'Where is order 1001?' }),
    ).rejects.toThrow();
  });

  it('cuts a stream after a given number of whole events, and the task can be resubscribed', async () => {
    const agentId = seed.agents.orderStatus.agentId;
    const whole = await streamAll(emu, agentId, { text: 'Where is order 1001?' });
    expect(whole.length).toBeGreaterThan(3);
    emu.faults.add({ route: 'streamAgent', dropAfterEvents: 2 });
    const transport = transportFor(emu, agentId);
    const seen: StreamEvent[] = [];
    const run = async () => {
      for await (const event of transport.sendMessageStream(
        { message: userMessage({ text: 'Where is order 1001?' }, emu.extensionUri) },
        { signal: AbortSignal.timeout(10_000) },
      )) {
        seen.push(event);
      }
    };
    await expect(run()).rejects.toThrow();
    // Exactly the events before the cut, each whole.
    expect(seen).toHaveLength(2);
    const first = seen[0];
    if (first?.kind !== 'task') throw new Error('the stream did not start with the task');
    const rest: StreamEvent[] = [];
    for await (const event of transport.resubscribeTask(
      { id: first.id },
      { signal: AbortSignal.timeout(10_000) },
    )) {
      rest.push(event);
    }
    // A task still running resends the snapshot and its events to the final one; a finished one, the task.
    const last = rest.at(-1);
    const state = last?.kind === 'task' ? last.status.state : finalStatus(rest).status.state;
    expect(state).toBe('completed');
  });

  it('refuses a dropAfterEvents that is not a count', async () => {
    expect(() => emu.faults.add({ route: 'streamAgent', dropAfterEvents: -1 })).toThrow(/dropAfterEvents/);
    expect(() => emu.faults.add({ route: 'streamAgent', dropAfterEvents: 1.5 })).toThrow(/dropAfterEvents/);
    // Neither was kept: the next stream runs whole.
    await expect(
      streamAll(emu, seed.agents.orderStatus.agentId, { text: 'Where is order 1001?' }),
    ).resolves.toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'status-update', final: true })]),
    );
  });

  it('sends a truncated, invalid JSON body', async () => {
    emu.faults.add({ route: 'listQnaSystems', malformed: true });
    const res = await raw('/api/qna/v1/systems');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('sends a truncated stream event', async () => {
    emu.faults.add({ route: 'streamAgent', malformed: true });
    await expect(
      streamAll(emu, seed.agents.orderStatus.agentId, { text: 'Where is order 1001?' }),
    ).rejects.toThrow();
  });

  describe('control endpoint', () => {
    it('adds one rule or an array, and clears them', async () => {
      const added = await call(emu, '/_emulator/faults', {
        method: 'POST',
        body: JSON.stringify([
          { route: 'listAgents', status: 503 },
          { route: 'listAgents', status: 429 },
        ]),
      });
      expect(obj(added.json)).toMatchObject({
        added: 2,
        active: 2,
        faults: [{ remaining: 1 }, { remaining: 1 }],
      });
      expect((await call(emu, '/api/agents/v1/')).status).toBe(503);
      await call(emu, '/_emulator/faults', {
        method: 'POST',
        body: JSON.stringify({ route: 'listAgents', status: 500 }),
      });
      expect((await call(emu, '/_emulator/faults', { method: 'DELETE' })).status).toBe(200);
      expect((await call(emu, '/api/agents/v1/')).status).toBe(200);
    });

    it.each([
      ['not json', '{'],
      ['a bad field', JSON.stringify({ route: 'listAgents', stauts: 500 })],
      ['a bad status', JSON.stringify({ status: 99 })],
      ['a bad drop', JSON.stringify({ drop: 'sometimes' })],
      ['a header with a newline', JSON.stringify({ headers: { 'x-a': 'b\r\nset-cookie: c' } })],
      ['zero times', JSON.stringify({ times: 0 })],
    ])('refuses %s with 400', async (_name, body) => {
      const res = await call(emu, '/_emulator/faults', { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(obj(res.json).status).toBe(400);
    });

    it('refuses a bad rule given to faults.add', () => {
      expect(() => emu.faults.add({ status: 42 })).toThrow(/status/);
    });

    it.each([
      ['a euro sign', { headers: { 'x-bad': '€' } }, 'headers'],
      ['a control character', { headers: { 'x-bad': 'a\u0001b' } }, 'headers'],
      ['DEL', { headers: { 'x-bad': 'a\u007fb' } }, 'headers'],
      ['a bad header name', { headers: { 'x bad': 'v' } }, 'headers'],
      ['a content type with a euro sign', { contentType: 'text/plain; charset=€' }, 'contentType'],
      ['an unknown route', { route: 'noSuchRoute' }, 'route'],
    ])('refuses a rule with %s in a header or route, naming the field', async (_name, rule, field) => {
      const res = await call(emu, '/_emulator/faults', { method: 'POST', body: JSON.stringify(rule) });
      expect(res.status).toBe(400);
      expect(obj(res.json).message).toContain(`'${field}'`);
      expect(res.text).not.toContain('€');
      // Refused rules are not in force: the next request is answered normally.
      expect((await call(emu, '/api/agents/v1/')).status).toBe(200);
    });

    it('lists the valid operationIds when a route is misspelled', async () => {
      const res = await call(emu, '/_emulator/faults', {
        method: 'POST',
        body: JSON.stringify({ route: 'listSystems' }),
      });
      expect(res.status).toBe(400);
      const message = String(obj(res.json).message);
      for (const id of ['listAgents', 'streamAgent', 'listQnaSystems', 'getQnaDocument']) {
        expect(message).toContain(id);
      }
      // @ts-expect-error: the type allows only operationIds and '*'
      expect(() => emu.faults.add({ route: 'listSystems' })).toThrow(/'route'.*listQnaSystems/);
    });

    it('refuses header values node:http cannot write, in faults.add and at start', async () => {
      expect(() => emu.faults.add({ headers: { 'x-trace': 'café ☕' } })).toThrow(/'headers'/);
      await expect(startEmulator({ faults: [{ headers: { 'x-trace': 'café ☕' } }] })).rejects.toThrow(
        /'headers'/,
      );
      // Latin-1 text is what HTTP/1.1 can carry (obs-text), and goes out as such.
      emu.faults.add({ route: 'listAgents', status: 503, headers: { 'x-trace': 'café' } });
      const res = await call(emu, '/api/agents/v1/');
      expect(res.status).toBe(503);
      expect(res.headers.get('x-trace')).toBe('café');
    });
  });

  describe('a reply node:http refuses to write', () => {
    it('answers 500 through a plain reply, reports it to the logger, and keeps serving', async () => {
      const logged: string[] = [];
      const quiet = await startEmulator({
        apiKeys: ['k'],
        logger: { error: (message: string) => logged.push(message) },
      });
      try {
        // Node refuses a trailer without chunked encoding only when the headers are written.
        quiet.faults.add({ route: 'listAgents', status: 503, headers: { trailer: 'x-checksum' } });
        const res = await call(quiet, '/api/agents/v1/');
        expect(res.status).toBe(500);
        expect(obj(res.json)).toMatchObject({ status: 500, code: 'INTERNAL' });
        expect(res.headers.get('trailer')).toBeNull();
        expect(logged).toEqual(['The emulator failed to handle GET /api/agents/v1/']);
        expect((await call(quiet, '/api/agents/v1/')).status).toBe(200);
      } finally {
        await quiet.close();
      }
    });
  });
});

describe('request recording', () => {
  it('records method, path, raw query, lower-case headers and body, newest last', async () => {
    emu.clearRequests();
    await call(
      emu,
      `/api/agents/v1/${seed.agents.orderStatus.agentId}/response?userText=hi%20there&llmProviderId=x`,
      {
        method: 'POST',
        headers: { 'X-Custom': 'yes', 'content-type': 'application/json' },
        body: '{"contextValues":{}}',
      },
    );
    await call(emu, '/api/agents/v1/');
    expect(emu.requests).toHaveLength(2);
    const [first, second] = emu.requests;
    expect(first).toMatchObject({
      method: 'POST',
      path: `/api/agents/v1/${seed.agents.orderStatus.agentId}/response`,
      query: 'userText=hi%20there&llmProviderId=x',
      body: '{"contextValues":{}}',
      bodyBytes: 20,
    });
    expect(first?.headers['x-custom']).toBe('yes');
    expect(first?.headers.authorization).toBe(`SSWS ${emu.apiKey}`);
    expect(second?.path).toBe('/api/agents/v1/');
  });

  it('serves the record over the control endpoint, without its own requests', async () => {
    emu.clearRequests();
    await call(emu, '/api/qna/v1/systems');
    const res = await call(emu, '/_emulator/requests');
    expect((res.json as { path: string }[]).map((r) => r.path)).toEqual(['/api/qna/v1/systems']);
  });

  it('records only requests with valid credentials, faulted ones included', async () => {
    emu.clearRequests();
    const unknownPath = '/api/no/such/thing';
    for (const authorization of ['', 'SSWS wrong-key', 'Bearer x.y.z', 'Basic abc']) {
      const res = await call(emu, unknownPath, { method: 'POST', headers: { authorization }, body: 'x' });
      expect(res.status).toBe(401);
    }
    expect(await call(emu, '/_emulator/requests', { headers: { authorization: 'SSWS nope' } })).toMatchObject(
      {
        status: 401,
      },
    );
    expect(emu.requests).toHaveLength(0);
    emu.faults.add({ route: 'listAgents', status: 503 });
    expect((await call(emu, '/api/agents/v1/')).status).toBe(503);
    expect((await call(emu, unknownPath)).status).toBe(404);
    expect(emu.requests.map((r) => r.path)).toEqual(['/api/agents/v1/', unknownPath]);
  });

  it('keeps a bounded prefix of each body, and the whole size in bodyBytes', async () => {
    const small = await startEmulator({
      apiKeys: ['k'],
      limits: { maxRecordedBodyBytes: 1000, maxBodyBytes: 4096 },
    });
    try {
      const post = (body: string) =>
        call(small, '/api/no/such/thing', {
          method: 'POST',
          body,
          headers: { 'content-type': 'text/plain' },
        });
      expect((await post('é'.repeat(1500))).status).toBe(404);
      expect((await post('z'.repeat(5000))).status).toBe(413);
      const [first, second] = small.requests;
      expect(first?.bodyBytes).toBe(3000);
      expect(Buffer.byteLength(first?.body ?? '')).toBe(1000);
      expect(second).toMatchObject({ body: 'z'.repeat(1000), bodyBytes: 5000 });
    } finally {
      await small.close();
    }
  });

  it('keeps the recorded requests under a byte cap, newest last', async () => {
    const small = await startEmulator({ apiKeys: ['k'], limits: { maxRecordedBytes: 64 * 1024 } });
    try {
      for (let i = 0; i < 20; i++) {
        await call(small, `/api/no/such/thing?n=${i}`, { method: 'POST', body: String(i).repeat(10_000) });
      }
      const size = small.requests.reduce(
        (sum, r) =>
          sum +
          r.method.length +
          Buffer.byteLength(r.path) +
          Buffer.byteLength(r.query) +
          Buffer.byteLength(r.body) +
          Object.entries(r.headers).reduce((n, [k, v]) => n + k.length + Buffer.byteLength(v), 0),
        0,
      );
      expect(size).toBeLessThanOrEqual(64 * 1024);
      expect(small.requests.length).toBeGreaterThan(1);
      expect(small.requests.at(-1)?.query).toBe('n=19');
    } finally {
      await small.close();
    }
  });

  it('does not keep a request larger than the whole byte cap, and keeps the others', async () => {
    // The body alone (up to the recorded-body limit) is larger than all the record may hold.
    const small = await startEmulator({ apiKeys: ['k'], limits: { maxRecordedBytes: 4096 } });
    try {
      for (const [n, size] of [10, 10, 10, 5000, 10].entries()) {
        await call(small, `/api/no/such/thing?n=${n}`, { method: 'POST', body: 'x'.repeat(size) });
      }
      expect(small.requests.map((r) => r.query)).toEqual(['n=0', 'n=1', 'n=2', 'n=4']);
    } finally {
      await small.close();
    }
  });

  it('keeps only the most recent 500', async () => {
    emu.clearRequests();
    // In waves of 40: 520 at once can outwait a call's time-out on a loaded machine.
    for (let wave = 0; wave < 520; wave += 40) {
      await Promise.all(Array.from({ length: 40 }, (_, i) => call(emu, `/api/qna/v1/systems?n=${wave + i}`)));
    }
    expect(emu.requests).toHaveLength(500);
    expect(emu.requests[0]?.query).toBe('n=20');
    expect(emu.requests.at(-1)?.query).toBe('n=519');
    // 520 round trips: a second or two alone, up to ten times that with every suite running at once.
  }, 90_000);
});
