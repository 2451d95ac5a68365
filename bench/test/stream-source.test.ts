import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWithDataworkz } from '../src/sections/a2a-reader.js';
import {
  readWithParser,
  readWithPassThrough,
  readWithSdkTransport,
  streamEndpoint,
} from '../src/sections/stream-readers.js';
import { type StreamSource, startStreamSource } from '../src/servers/stream-source.js';

describe('the stream source', () => {
  let source: StreamSource;
  beforeAll(async () => {
    source = await startStreamSource('test-key');
  });
  afterAll(() => source.close());

  it('gives every client exactly the requested number of events, served live and then replayed', async () => {
    const target = { ...source.info, events: 350 };
    for (let pass = 0; pass < 2; pass++) {
      for (const read of [readWithParser, readWithSdkTransport, readWithPassThrough, readWithDataworkz]) {
        const reading = await read(target);
        expect(reading.events).toBe(350);
        expect(reading.firstEventMs).toBeGreaterThanOrEqual(0);
        expect(reading.totalMs).toBeGreaterThanOrEqual(reading.firstEventMs);
      }
    }
  });

  it('streams the task first, task updates among answer chunks, and a final completed status', async () => {
    const response = await fetch(streamEndpoint({ ...source.info, events: 203 }), {
      method: 'POST',
      headers: { authorization: 'SSWS test-key', 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'x',
        method: 'message/stream',
        params: {
          message: { kind: 'message', role: 'user', messageId: 'm', parts: [{ kind: 'text', text: 'go' }] },
        },
      }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text())
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: '))
      .map((frame) => JSON.parse(frame.slice(6)) as { id: unknown; result: Record<string, unknown> });
    expect(events).toHaveLength(203);
    expect(events.every((e) => e.id === 'x')).toBe(true);
    const kinds = events.map((e) => e.result.kind);
    expect(kinds[0]).toBe('task');
    expect(kinds.filter((k) => k === 'artifact-update')).toHaveLength(198);
    const updates = events.filter((e) => e.result.kind === 'status-update' && e.result.final === false);
    expect(updates).toHaveLength(3);
    expect(JSON.stringify(updates[0]?.result)).toContain('"type":"SVC_STATUS_UPDATE"');
    const last = events.at(-1)?.result as { final: boolean; status: { state: string } };
    expect(last.final).toBe(true);
    expect(last.status.state).toBe('completed');
  });

  it('refuses a wrong key and an unknown path', async () => {
    const wrongKey = await fetch(streamEndpoint({ ...source.info, events: 10 }), {
      method: 'POST',
      headers: { authorization: 'SSWS nope' },
      body: '{}',
    });
    expect(wrongKey.status).toBe(401);
    const unknown = await fetch(`${source.info.url}/api/agents/v1/a2a/other/stream`, { method: 'POST' });
    expect(unknown.status).toBe(404);
  });
});
