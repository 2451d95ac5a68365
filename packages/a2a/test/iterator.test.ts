import { streamAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completed,
  type RawServer,
  requestId,
  sseResult,
  startRawServer,
  working,
} from './support/raw-server.js';

let server: RawServer;
let dw: Dataworkz;

beforeAll(async () => {
  server = await startRawServer((_req, res, body) => {
    const id = requestId(body);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // Two chunks, so that some calls are answered from what was read and others wait for the socket.
    res.write(sseResult(id, working) + sseResult(id, { ...working, status: { state: 'working' } }));
    setImmediate(() => res.end(sseResult(id, completed('Done'))));
  });
  dw = new Dataworkz({ baseUrl: server.url, apiKey: 'iterator-key', maxRetries: 0 });
});
afterAll(() => server.close());

describe('the run iterator', () => {
  it('answers next() calls made without waiting in order, then reports the end', async () => {
    const iterator = streamAgent(dw, 'agent-1', { text: 'Hi' })[Symbol.asyncIterator]();
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => iterator.next()));
    expect(
      results.map((result) => (result.done ? 'done' : `${result.value.type}:${result.value.final}`)),
    ).toEqual(['status:false', 'status:false', 'status:true', 'done', 'done']);
    await server.responseClosed();
    expect(server.openConnections).toBe(0);
  }, 10_000);

  it('is itself iterable, as a generator is', async () => {
    const iterator = streamAgent(dw, 'agent-1', { text: 'Hi' })[
      Symbol.asyncIterator
    ]() as AsyncIterableIterator<unknown>;
    const events: unknown[] = [];
    for await (const event of iterator) events.push(event);
    expect(events).toHaveLength(3);
  }, 10_000);
});
