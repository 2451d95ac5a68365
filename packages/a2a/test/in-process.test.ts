import { type AgentEvent, getAgentCard, streamAgent } from '@dataworkz/a2a';
import {
  APIConnectionError,
  APIUserAbortError,
  Dataworkz,
  InternalServerError,
  MalformedResponseError,
} from '@dataworkz/client';
import { createEmulator, type InProcessEmulator, seed } from '@dataworkz/emulator';
import { until } from '@dataworkz/measure';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The emulator in this process, reached through its fetch handler: no port, no socket.
const baseUrl = 'https://dw.example';
const apiKey = 'in-process-key';
const orderStatus = seed.agents.orderStatus.agentId;
const { systemId } = seed.systems.productDocs;

let emu: InProcessEmulator;
let dw: Dataworkz;

beforeEach(() => {
  emu = createEmulator({ apiKeys: [apiKey] });
  dw = new Dataworkz({ baseUrl, apiKey, fetch: emu.fetch, maxRetries: 0 });
});
afterEach(() => emu.close());

async function collect(run: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

describe('every operation in process', () => {
  it('answers the agents operations', async () => {
    const agents = await dw.agents.list();
    expect(agents.map((agent) => agent.agentId)).toContain(orderStatus);
    expect(Object.keys(await dw.agents.llmProviders())).toContain(seed.llms.accountDefault);
    const response = await dw.agents.respond(orderStatus, {
      userText: 'What is the status of order 1001?',
      llmProviderId: seed.llms.accountDefault,
    });
    expect(response.data?.answer).toContain('1001');
    const card = await dw.agents.card(orderStatus);
    expect(await dw.agents.card(orderStatus, { legacy: true })).toEqual(card);
    // Links in answers name the origin the caller used.
    expect(card.url).toBe(`${baseUrl}/api/agents/v1/a2a/${orderStatus}/stream`);
    expect((await getAgentCard(dw, orderStatus)).name).toBe(seed.agents.orderStatus.name);
  });

  it('answers the QnA operations', async () => {
    expect((await dw.qna.list())[systemId]).toBe(seed.systems.productDocs.name);
    expect((await dw.qna.get(systemId)).name).toBe(seed.systems.productDocs.name);
    expect(Object.keys(await dw.qna.llmProviders(systemId))).toContain(seed.llms.productDocsSystem);
    expect((await dw.qna.filters(systemId)).filters?.map((f) => f.name)).toContain('version');
    const search = await dw.qna.search(systemId, { query: 'reset password' });
    expect(search.searchResultsList?.length).toBeGreaterThan(0);
    const answer = await dw.qna.answer(systemId, {
      questionText: 'How do I reset my password?',
      llmProviderId: seed.llms.productDocsSystem,
    });
    expect(answer.answer?.length).toBeGreaterThan(0);
    const document = seed.documents.returnsPolicy;
    const bytes = new Uint8Array(await (await dw.qna.document(document.systemId, document)).arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  });

  it('streams an agent run through the A2A SDK', async () => {
    const run = streamAgent(dw, orderStatus, { text: 'Where is order 1001?' });
    const events = await collect(run);
    expect(events[0]).toMatchObject({ type: 'task', state: 'submitted' });
    expect(events.filter((event) => event.type === 'task-update').length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: 'status', state: 'completed', final: true });
    expect((await run.finalAnswer()).answer).toMatch(/1001/);
    expect(emu.openStreams).toBe(0);
  });

  it('records the requests it answered, with their bodies', async () => {
    await dw.agents.respond(orderStatus, {
      userText: 'Where is order 1001?',
      llmProviderId: seed.llms.accountDefault,
      contextValues: { userName: 'Ada' },
    });
    expect(emu.requests).toHaveLength(1);
    expect(emu.requests[0]).toMatchObject({
      method: 'POST',
      path: `/api/agents/v1/${orderStatus}/response`,
      headers: { authorization: `SSWS ${apiKey}` },
    });
    expect(JSON.parse(emu.requests[0]?.body ?? '')).toEqual({ contextValues: { userName: 'Ada' } });
    emu.clearRequests();
    expect(emu.requests).toEqual([]);
  });

  it('refuses a wrong key as the service does', async () => {
    const wrong = new Dataworkz({ baseUrl, apiKey: 'nope', fetch: emu.fetch, maxRetries: 0 });
    await expect(wrong.qna.list()).rejects.toMatchObject({ status: 401 });
    expect(emu.requests).toEqual([]);
  });
});

describe('limits in process', () => {
  it('reads a request body stream only up to the limit, refusing it with 413 and counting it all', async () => {
    const small = createEmulator({ apiKeys: [apiKey], limits: { maxBodyBytes: 1024 } });
    const chunk = new TextEncoder().encode('x'.repeat(1000));
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 5) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await small.fetch(
      `${baseUrl}/api/agents/v1/${orderStatus}/response?userText=hi&llmProviderId=${seed.llms.accountDefault}`,
      { method: 'POST', body, headers: { authorization: `SSWS ${apiKey}` }, duplex: 'half' } as RequestInit,
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(small.requests[0]).toMatchObject({ bodyBytes: 5000 });
    expect(small.requests[0]?.body).toHaveLength(1024);
    await small.close();
  });
});

describe('faults in process', () => {
  it('answers with the status and headers of a rule', async () => {
    emu.faults.add({ route: 'listQnaSystems', status: 503, headers: { 'retry-after': '0' } });
    await expect(dw.qna.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(Object.keys(await dw.qna.list())).toContain(systemId);
  });

  it('fails fetch with a TypeError for a connection dropped before the headers', async () => {
    emu.faults.add({ route: 'listQnaSystems', drop: 'before-headers' });
    const error = await emu
      .fetch(`${baseUrl}/api/qna/v1/systems`, { headers: { authorization: `SSWS ${apiKey}` } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    emu.faults.add({ route: 'listQnaSystems', drop: 'before-headers' });
    await expect(dw.qna.list()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('errors the body of a connection dropped during the body', async () => {
    emu.faults.add({ route: 'listQnaSystems', drop: 'during-body' });
    const response = await emu.fetch(`${baseUrl}/api/qna/v1/systems`, {
      headers: { authorization: `SSWS ${apiKey}` },
    });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toBeInstanceOf(TypeError);
    emu.faults.add({ route: 'listQnaSystems', drop: 'during-body' });
    await expect(dw.qna.list()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('truncates a malformed body', async () => {
    emu.faults.add({ route: 'listQnaSystems', malformed: true });
    await expect(dw.qna.list()).rejects.toBeInstanceOf(MalformedResponseError);
  });

  it('delays an answer by the latency of a rule, and an abort ends the wait', async () => {
    emu.faults.add({ route: 'listQnaSystems', latencyMs: 60_000 });
    const controller = new AbortController();
    const listing = dw.qna.list({ signal: controller.signal });
    await until(() => emu.requests.length === 1, 'the request reached the emulator');
    controller.abort();
    await expect(listing).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('cuts a stream after its first event', async () => {
    emu.faults.add({ route: 'streamAgent', drop: 'during-body' });
    await expect(
      streamAgent(dw, orderStatus, { text: 'Where is order 1001?' }).finalAnswer(),
    ).rejects.toBeInstanceOf(APIConnectionError);
    expect(emu.openStreams).toBe(0);
  });
});

describe('ending streams in process', () => {
  it('stops the stream and its run when the client aborts or breaks off', async () => {
    // Steps 30 s apart: the stream can only close this soon because the client ended it.
    const slow = createEmulator({ apiKeys: [apiKey], agentStepDelayMs: 30_000 });
    try {
      const client = new Dataworkz({ baseUrl, apiKey, fetch: slow.fetch, maxRetries: 0 });
      const run = streamAgent(client, orderStatus, { text: 'Where is order 1001?' });
      for await (const event of run) {
        if (event.type === 'task') {
          expect(slow.openStreams).toBe(1);
          break;
        }
      }
      await expect(run.finalAnswer()).rejects.toBeInstanceOf(APIUserAbortError);
      await until(() => slow.openStreams === 0, 'every stream closed');

      const controller = new AbortController();
      const signalled = streamAgent(client, orderStatus, {
        text: 'Where is order 1001?',
        signal: controller.signal,
      });
      const iterator = signalled[Symbol.asyncIterator]();
      await iterator.next();
      expect(slow.openStreams).toBe(1);
      controller.abort();
      await expect(iterator.next()).rejects.toBeInstanceOf(APIUserAbortError);
      await until(() => slow.openStreams === 0, 'every stream closed');
    } finally {
      await slow.close();
    }
  });

  it('ends open streams on close, and fails fetch after it', async () => {
    const slow = createEmulator({ apiKeys: [apiKey], agentStepDelayMs: 30_000 });
    const client = new Dataworkz({ baseUrl, apiKey, fetch: slow.fetch, maxRetries: 0 });
    const iterator = streamAgent(client, orderStatus, { text: 'Where is order 1001?' })[
      Symbol.asyncIterator
    ]();
    await iterator.next();
    expect(slow.openStreams).toBe(1);
    await slow.close();
    expect(slow.openStreams).toBe(0);
    await expect(slow.fetch(`${baseUrl}/api/qna/v1/systems`)).rejects.toBeInstanceOf(TypeError);
  });
});

describe('createEmulator options', () => {
  it('refuses the data folder, which only startEmulator reads', () => {
    expect(() => createEmulator({ data: './data' } as never)).toThrow(/startEmulator/);
  });

  it('generates a key when none is given, usable at once', async () => {
    const own = createEmulator();
    expect(own.apiKey).toMatch(/^dwz_/);
    await own.ready;
    const client = new Dataworkz({ baseUrl: 'http://localhost:1', apiKey: own.apiKey, fetch: own.fetch });
    expect((await client.agents.list()).length).toBeGreaterThan(0);
  });
});
