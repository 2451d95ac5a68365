// Replay keeps the limits the live API keeps, whatever the cassette holds, and refuses a cassette
// entry it could not serve when it is loaded, naming the entry.
import { CassetteError, createEmulator, seed } from '@dataworkz/emulator';
import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { cassetteOf, longStreamEntry } from './support/cassette.js';

const key = 'replay-limits-key-0123';
const auth = { authorization: `SSWS ${key}` };
const agentId = seed.agents.orderStatus.agentId;
const streamUrl = `https://dw.example/api/agents/v1/a2a/${agentId}/stream`;
const body = '{"jsonrpc":"2.0","method":"message/stream","params":{}}';

/** The one stream the cassette holds: its second event comes 24.8 days after its first. */
const streamEntry = () => longStreamEntry(streamUrl, body);

async function eventsOf(response: Response): Promise<string[]> {
  const data: string[] = [];
  const parser = createParser({ onEvent: (event) => data.push(event.data) });
  const decoder = new TextDecoder();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    parser.feed(decoder.decode(next.value, { stream: true }));
  }
  return data;
}

const post = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body };

describe('replay, within the emulator’s limits', () => {
  it('refuses a stream past --max-concurrent-streams with 429, and counts replayed streams as open', async () => {
    const emu = createEmulator({
      replay: cassetteOf(streamEntry()),
      apiKeys: [key],
      limits: { maxConcurrentStreams: 4, streamTimeoutMs: 1500 },
    });
    try {
      const responses = [];
      for (let i = 0; i < 8; i++) responses.push(await emu.fetch(streamUrl, post));
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
      expect(emu.openStreams).toBe(4);
      const refused = (await responses[4]?.json()) as { code: string };
      expect(refused.code).toBe('TOO_MANY_STREAMS');
      // Each open one ends by the stream time-out, though its next event was recorded 24.8 days later.
      const streams = await Promise.all(responses.slice(0, 4).map(eventsOf));
      expect(streams).toEqual([['{"n":1}'], ['{"n":1}'], ['{"n":1}'], ['{"n":1}']]);
      expect(emu.openStreams).toBe(0);
      expect((await emu.fetch(streamUrl, post)).status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it('ends a stream whose client left, and frees its place', async () => {
    const emu = createEmulator({
      replay: cassetteOf(streamEntry()),
      apiKeys: [key],
      limits: { maxConcurrentStreams: 1 },
    });
    try {
      const abort = new AbortController();
      const first = await emu.fetch(streamUrl, { ...post, signal: abort.signal });
      expect(first.status).toBe(200);
      expect((await emu.fetch(streamUrl, post)).status).toBe(429);
      abort.abort();
      await first.body?.cancel().catch(() => {});
      expect(emu.openStreams).toBe(0);
      const again = await emu.fetch(streamUrl, post);
      expect(again.status).toBe(200);
      await again.body?.cancel();
    } finally {
      await emu.close();
    }
  });

  it('refuses a request body nested deeper than 64 levels, as the live API does', async () => {
    const emu = createEmulator({ replay: cassetteOf(streamEntry()), apiKeys: [key] });
    try {
      const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
      const response = await emu.fetch(streamUrl, { ...post, body: deep });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 'BAD_REQUEST_BODY',
        message: 'The request body nests arrays and objects deeper than 64 levels',
      });
    } finally {
      await emu.close();
    }
  });
});

/** An entry as a hand-edited file may hold it. */
interface Loose {
  request: { postData: { text: unknown } };
  response: { status: number; content: unknown; headers: { name: string; value: string }[] };
  _events?: { id?: string }[];
}

describe('a cassette, checked entry by entry when loaded', () => {
  /** The second entry of a cassette, with one field changed. */
  function refusal(change: (entry: Loose) => void): string {
    const bad = streamEntry() as unknown as Loose;
    change(bad);
    try {
      createEmulator({ replay: cassetteOf(streamEntry(), bad), apiKeys: [key] });
    } catch (error) {
      expect(error).toBeInstanceOf(CassetteError);
      return (error as Error).message;
    }
    throw new Error('the cassette was accepted');
  }

  it('refuses a body text that is not a string, a content that is not an object, a status that is not final', () => {
    expect(
      refusal((e) => {
        e.request.postData.text = 42;
      }),
    ).toBe('the cassette: entry 1 has a request.postData.text that is not a string');
    expect(
      refusal((e) => {
        e.response.content = null;
      }),
    ).toBe('the cassette: entry 1 needs response.content, an object');
    expect(
      refusal((e) => {
        e.response.status = 101;
      }),
    ).toBe('the cassette: entry 1 needs response.status, an HTTP status from 200 to 599');
    expect(
      refusal((e) => {
        delete e._events;
        e.response.content = { size: 2, mimeType: 'application/json', text: { a: 1 } };
      }),
    ).toBe('the cassette: entry 1 has a response.content.text that is not a string');
  });

  it('refuses headers HTTP cannot carry, events that would open another, a body that is not base64', () => {
    const secret = 'do-not-quote-me-0123';
    const header = refusal((e) => {
      e.response.headers.push({ name: 'x-note', value: `a\r\nset-cookie: ${secret}` });
    });
    expect(header).toBe(
      'the cassette: entry 1 needs response.headers, a list of names and values HTTP can carry',
    );
    expect(header).not.toContain(secret);
    expect(
      refusal((e) => {
        const event = e._events?.[1];
        if (event) event.id = `1\ndata: ${secret}`;
      }),
    ).toBe('the cassette: entry 1 has an _events[1].id that is not a one-line string');
    expect(
      refusal((e) => {
        delete e._events;
        e.response.content = {
          size: 1,
          mimeType: 'application/pdf',
          text: 'not base64!',
          encoding: 'base64',
        };
      }),
    ).toBe('the cassette: entry 1 has a response.content.text that is not base64');
    expect(
      refusal((e) => {
        e.request.postData.text = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
      }),
    ).toBe('the cassette: entry 1 has a request.postData.text nested deeper than 64 levels');
  });
});
