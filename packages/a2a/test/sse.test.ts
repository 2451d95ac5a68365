import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentSseEvent, agentSseResponse, streamAgent, writeAgentSse } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventId, lastEventPosition } from '../src/event-stream/event-ids.js';
import { methodsSent, streamOpened, streamsClosed } from './support/emulator-streams.js';

const apiKey = 'sse-suite-key-0123456789';
const agentId = seed.agents.orderStatus.agentId;
const text = 'Where is order 1001?';

let emu: Emulator;
let dw: Dataworkz;

type Received = { id: string | undefined; event: AgentSseEvent };

/** Reads SSE frames from a body until it ends, or until `stopAfter` events (then cancels it). */
async function read(body: ReadableStream<Uint8Array> | null, stopAfter = Number.POSITIVE_INFINITY) {
  const received: Received[] = [];
  let wire = '';
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      received.push({ id: message.id, event: JSON.parse(message.data) as AgentSseEvent });
    },
  });
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  while (received.length < stopAfter) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = decoder.decode(value, { stream: true });
    wire += chunk;
    parser.feed(chunk);
  }
  await reader.cancel();
  return { received, wire };
}

beforeAll(async () => {
  // Agent-only: no embedding model to load. Steps take a while, so a cut lands mid-run.
  emu = await startEmulator({ port: 0, apiKeys: [apiKey], embed: false, agentStepDelayMs: 15 });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey, maxRetries: 0 });
});
afterAll(() => emu.close());
afterEach(async () => {
  emu.faults.clear();
  emu.clearRequests();
  await streamsClosed(emu);
});

describe('agentSseResponse', () => {
  it('sends the steps, then the answer, each with an id naming the task; the last id ends the stream', async () => {
    const response = agentSseResponse(dw, agentId, { text });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const { received } = await read(response.body);
    const steps = received.filter(({ event }) => event.type === 'step');
    expect(steps.length).toBeGreaterThan(1);
    const last = received.at(-1) as Received;
    expect(last.event).toMatchObject({ type: 'answer', state: 'completed' });
    const taskId = (last.event as { taskId: string }).taskId;
    expect(taskId).toEqual(expect.any(String));
    expect(received.map(({ id }) => id)).toEqual(
      received.map((_, index) => `${taskId}:${index + 1}${index === received.length - 1 ? ':end' : ''}`),
    );
    // The small shape: no A2A payload unless asked.
    for (const { event } of received) expect(event).not.toHaveProperty('raw');
    const answer = await streamAgent(dw, agentId, { text }).finalAnswer();
    expect((last.event as { text: string }).text).toBe(answer.answer);
  });

  it('adds the A2A payload as raw when asked', async () => {
    const { received } = await read(agentSseResponse(dw, agentId, { text }, { raw: true }).body);
    for (const { event } of received) expect(event).toHaveProperty('raw', expect.any(Object));
  });

  it('a reconnection with Last-Event-ID follows the same task: the agent runs once, the answer is whole', async () => {
    const { received: before } = await read(agentSseResponse(dw, agentId, { text }).body, 2);
    const lastEventId = before.at(-1)?.id as string;
    const [taskId, sequence] = lastEventId.split(':');
    const { received: after } = await read(agentSseResponse(dw, agentId, { text }, { lastEventId }).body);
    const last = after.at(-1) as Received;
    expect(last.event).toMatchObject({ type: 'answer', state: 'completed', taskId });
    // Numbered on from the last event the client saw.
    expect(after[0]?.id).toBe(`${taskId}:${Number(sequence) + 1}`);
    const methods = methodsSent(emu);
    expect(methods.filter((method) => method === 'message/stream')).toHaveLength(1);
    expect(methods.filter((method) => method === 'tasks/resubscribe')).toHaveLength(1);
  });

  it('a reconnection to an agent that refuses to resubscribe reads the task instead, and still runs it once', async () => {
    const { received: before } = await read(agentSseResponse(dw, agentId, { text }).body, 2);
    const lastEventId = before.at(-1)?.id as string;
    emu.faults.add({ route: 'streamAgent', status: 501 });
    const options = { text, resume: { initialDelayMs: 1, maxDelayMs: 1, pollIntervalMs: 1 } };
    const { received: after } = await read(agentSseResponse(dw, agentId, options, { lastEventId }).body);
    expect(after.at(-1)?.event).toMatchObject({
      type: 'answer',
      state: 'completed',
      taskId: lastEventId.split(':')[0],
    });
    const methods = methodsSent(emu);
    expect(methods.filter((method) => method === 'message/stream')).toHaveLength(1);
    expect(methods).toContain('tasks/get');
  });

  it('answers 204 to a reconnection after the stream ended, so an EventSource stops', async () => {
    const { received } = await read(agentSseResponse(dw, agentId, { text }).body);
    const response = agentSseResponse(dw, agentId, { text }, { lastEventId: received.at(-1)?.id });
    expect(response.status).toBe(204);
    expect(methodsSent(emu)).toEqual(['message/stream']);
  });

  it('a stream that breaks with resume off ends with an error event, typed and without the key', async () => {
    emu.faults.add({ route: 'streamAgent', dropAfterEvents: 3 });
    const { received, wire } = await read(agentSseResponse(dw, agentId, { text, resume: false }).body);
    const last = received.at(-1) as Received;
    expect(last.event).toMatchObject({ type: 'error', name: 'APIConnectionError' });
    expect((last.event as { message: string }).message).toMatch(/broke off/);
    expect(last.id).toMatch(/:end$/);
    expect(wire).not.toContain(apiKey);
  });

  it('refuses a Last-Event-ID it did not write with an error event, running nothing', async () => {
    const { received } = await read(
      agentSseResponse(dw, agentId, { text }, { lastEventId: 'nonsense' }).body,
    );
    expect(received).toEqual([
      { id: ':1:end', event: expect.objectContaining({ type: 'error', name: 'InvalidParameterError' }) },
    ]);
    expect(methodsSent(emu)).toEqual([]);
  });

  it('cancelling the body (the client leaving) stops the run and closes its stream to the agent', async () => {
    // Each step takes a minute here: only the client leaving can close the agent's stream this soon.
    const slow = await startEmulator({ port: 0, apiKeys: [apiKey], embed: false, agentStepDelayMs: 60_000 });
    try {
      const slowDw = new Dataworkz({ baseUrl: slow.url, apiKey, maxRetries: 0 });
      const response = agentSseResponse(slowDw, agentId, { text });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await streamOpened(slow);
      await reader.cancel();
      await streamsClosed(slow);
    } finally {
      await slow.close();
    }
  });
});

describe('writeAgentSse on node:http', () => {
  let server: Server;
  let url: string;
  const served: Promise<void>[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      served.push(writeAgentSse(dw, agentId, { text }, res, { lastEventId: req.headers['last-event-id'] }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('streams the run, then resumes it from a reconnection without running the agent again', async () => {
    const first = await fetch(url);
    expect(first.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const { received: before } = await read(first.body, 2);
    const second = await fetch(url, { headers: { 'last-event-id': before.at(-1)?.id as string } });
    const { received: after } = await read(second.body);
    expect(after.at(-1)?.event).toMatchObject({ type: 'answer', state: 'completed' });
    expect(methodsSent(emu).filter((method) => method === 'message/stream')).toHaveLength(1);
    await Promise.all(served);
    const third = await fetch(url, { headers: { 'last-event-id': after.at(-1)?.id as string } });
    expect(third.status).toBe(204);
  });

  it('the client closing the connection stops the run: the promise resolves, the agent stream closes', async () => {
    // Each step takes a minute here: only the client leaving can end the run this soon.
    const slow = await startEmulator({ port: 0, apiKeys: [apiKey], embed: false, agentStepDelayMs: 60_000 });
    const slowDw = new Dataworkz({ baseUrl: slow.url, apiKey, maxRetries: 0 });
    let writing: Promise<void> | undefined;
    const slowServer = createServer((_req, res) => {
      writing = writeAgentSse(slowDw, agentId, { text }, res);
    });
    try {
      slowServer.listen(0, '127.0.0.1');
      await once(slowServer, 'listening');
      const controller = new AbortController();
      await fetch(`http://127.0.0.1:${(slowServer.address() as AddressInfo).port}/`, {
        signal: controller.signal,
      });
      await streamOpened(slow);
      controller.abort();
      await writing;
      await streamsClosed(slow);
    } finally {
      slowServer.close();
      await slow.close();
    }
  });
});

describe('event ids', () => {
  it('read back as written, for any task id and sequence', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), fc.boolean(), (taskId, sequence, ended) => {
        fc.pre(taskId !== '' || ended);
        const position = { taskId, sequence, ended };
        expect(lastEventPosition(eventId(position))).toEqual(position);
      }),
    );
  });
});
