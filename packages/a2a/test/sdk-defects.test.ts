// The rows of the table "The defects" on the docs page explanation/a2a-sdk-defects.md (one test per
// row). Each test shows the defect in the raw SDK (`@a2a-js/sdk` 0.3.14, given a plain
// fetch with the credential), so that an SDK release that fixes it is noticed, and this package's
// public API handling the same server.
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import type { MessageSendParams, AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import { Client, DefaultAgentCardResolver, JsonRpcTransport } from '@a2a-js/sdk/client';
import {
  getAgentCard,
  getTask,
  JsonRpcError,
  StreamEventTooLargeError,
  StreamIdleTimeoutError,
  StreamProtocolError,
  streamAgent,
} from '@dataworkz/a2a';
import { APIUserAbortError, Dataworkz, RateLimitError } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  completed,
  type RawHandler,
  type RawServer,
  requestId,
  sseResult,
  startRawServer,
  working,
} from './support/raw-server.js';

const apiKey = 'sdk-defects-key-5b0e';
const AGENT = 'agent-1';

let handler: RawHandler = (_req, res) => {
  res.end();
};
let server: RawServer;
let dw: Dataworkz;
/** The JSON-RPC methods and request paths the raw server was sent, in order. */
const methods: string[] = [];
const paths: string[] = [];
/** A response a test leaves open on purpose; ended after the test whatever its outcome. */
let held: ServerResponse | undefined;

beforeAll(async () => {
  server = await startRawServer((req, res, body) => {
    paths.push(req.url ?? '');
    const method = (body as { method?: unknown } | undefined)?.method;
    if (typeof method === 'string') methods.push(method);
    return handler(req, res, body);
  });
  dw = new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => {
  methods.length = 0;
  paths.length = 0;
});
afterEach(async () => {
  if (held && !held.writableEnded) held.end();
  held = undefined;
  await server.responseClosed();
});

/** A plain fetch with the credential: the raw SDK as an application would wire it. */
const fetchWithKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('authorization', `SSWS ${apiKey}`);
  return fetch(input, { ...init, headers });
};

const endpoint = () => `${server.url}/api/agents/v1/a2a/${AGENT}/stream`;
const sdkTransport = () => new JsonRpcTransport({ endpoint: endpoint(), fetchImpl: fetchWithKey });
const params: MessageSendParams = {
  message: { kind: 'message', role: 'user', messageId: 'm-0', parts: [{ kind: 'text', text: 'Hi' }] },
};

interface Outcome {
  events: unknown[];
  error?: unknown;
}

async function drain(events: AsyncIterable<unknown>): Promise<Outcome> {
  const seen: unknown[] = [];
  try {
    for await (const event of events) seen.push(event);
  } catch (error) {
    return { events: seen, error };
  }
  return { events: seen };
}

/** The raw SDK's `message/stream` against the raw server. */
const sdkStream = () => drain(sdkTransport().sendMessageStream(params));

/**
 * The SDK's transport with its fetch watched for the two things that close a stream's connection from
 * the client: aborting the request, and cancelling the response body.
 */
function watchedTransport() {
  const watch = { aborted: () => false, cancelled: false, body: undefined as ReadableStream | undefined };
  const fetchImpl: typeof fetch = async (input, init) => {
    const signal = init?.signal;
    watch.aborted = () => signal?.aborted ?? false;
    const response = await fetchWithKey(input, init);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    watch.body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel(reason) {
        watch.cancelled = true;
        return reader.cancel(reason);
      },
    });
    return new Response(watch.body, response);
  };
  return { watch, transport: new JsonRpcTransport({ endpoint: endpoint(), fetchImpl }) };
}

/** This package's run against the raw server; the faults here are not the ones resuming is about. */
const ourStream = (options: Omit<Parameters<typeof streamAgent>[2], 'text'> = {}) =>
  drain(streamAgent(dw, AGENT, { text: 'Hi', resume: false, ...options }));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function eventStream(res: ServerResponse, contentType = 'text/event-stream'): void {
  res.writeHead(200, { 'content-type': contentType });
}

/** The final status event's text, as the raw SDK hands it over. */
function finalText(events: unknown[]): string | undefined {
  const last = events.at(-1) as { status?: { message?: { parts?: Array<{ text?: string }> } } } | undefined;
  return last?.status?.message?.parts?.[0]?.text;
}

/** Every piece of `secret` at least 6 characters long that `text` shows. */
function fragmentsOf(secret: string, text: string): string[] {
  const found: string[] = [];
  for (let start = 0; start + 6 <= secret.length; start++) {
    if (text.includes(secret.slice(start, start + 6))) found.push(secret.slice(start, start + 6));
  }
  return found;
}

describe('SDK defects, each shown in the raw SDK and handled by this package', () => {
  it('SDK 0.3.14 keeps only the last data: line of an event; streamAgent reads multi-line data', async () => {
    handler = (_req, res, body) => {
      eventStream(res);
      res.write(sseResult(requestId(body), working));
      // The final event as a pretty-printed JSON text, one `data:` line per line, as SSE allows.
      const json = JSON.stringify(
        { jsonrpc: '2.0', id: requestId(body), result: completed('Done') },
        null,
        2,
      );
      res.end(
        `${json
          .split('\n')
          .map((line) => `data: ${line}`)
          .join('\n')}\n\n`,
      );
    };

    const raw = await sdkStream();
    expect(raw.events).toHaveLength(1);
    expect(raw.error).toBeInstanceOf(Error);
    // Only the last line, `}`, reached its JSON reader.
    expect((raw.error as Error).message).toMatch(/^Failed to parse SSE event data: "}\.\.\."/);

    const ours = await ourStream();
    expect(ours.error).toBeUndefined();
    expect(ours.events.at(-1)).toMatchObject({
      type: 'status',
      state: 'completed',
      final: true,
      text: 'Done',
    });
  });

  it('SDK 0.3.14 puts no cap on an event; streamAgent fails one past maxEventBytes with StreamEventTooLargeError', async () => {
    const big = 'x'.repeat(64 * 1024);
    handler = (_req, res, body) => {
      eventStream(res);
      res.write(sseResult(requestId(body), working));
      res.end(sseResult(requestId(body), completed(big)));
    };

    const raw = await sdkStream();
    expect(raw.error).toBeUndefined();
    expect(finalText(raw.events)).toBe(big);

    const ours = await ourStream({ maxEventBytes: 16 * 1024 });
    expect(ours.error).toBeInstanceOf(StreamEventTooLargeError);
    expect((ours.error as StreamEventTooLargeError).maxEventBytes).toBe(16 * 1024);
    expect(ours.events).toHaveLength(1);
  });

  it('SDK 0.3.14 reads every event as a JSON-RPC response, so `event: ping` fails its stream; streamAgent skips it', async () => {
    handler = (_req, res, body) => {
      eventStream(res);
      res.write(sseResult(requestId(body), working));
      res.write('event: ping\ndata: {}\n\n');
      res.end(sseResult(requestId(body), completed('Done')));
    };

    const raw = await sdkStream();
    expect(raw.events).toHaveLength(1);
    expect((raw.error as Error).message).toBe(
      'JSON-RPC response ID mismatch in SSE event. Expected 1, got undefined.',
    );

    const ours = await ourStream();
    expect(ours.error).toBeUndefined();
    expect(ours.events.map((event) => (event as { type: string }).type)).toEqual(['status', 'status']);
    expect(ours.events.at(-1)).toMatchObject({ final: true, text: 'Done' });
  });

  it('SDK 0.3.14 leaves the connection open when its stream is left; breaking out of streamAgent closes it', async () => {
    handler = (_req, res, body) => {
      eventStream(res);
      res.write(sseResult(requestId(body), working));
      held = res;
      // Then nothing: the stream stays open until a side closes it.
    };

    const { watch, transport } = watchedTransport();
    for await (const _event of transport.sendMessageStream(params)) break;
    // The SDK left its reader without cancelling the body or aborting the request: neither of the two
    // events that would close the connection came, so it stays open until a side closes it.
    expect(watch.body).toBeDefined();
    expect(watch.cancelled).toBe(false);
    expect(watch.aborted()).toBe(false);
    expect(server.openConnections).toBe(1);
    held?.end();
    await server.responseClosed();
    expect(server.openConnections).toBe(0);

    const run = streamAgent(dw, AGENT, { text: 'Hi' });
    for await (const _event of run) break;
    await expect(run.finalAnswer()).rejects.toBeInstanceOf(APIUserAbortError);
    // Closed by the client: the server never ends this response.
    await server.responseClosed();
    expect(server.openConnections).toBe(0);
    expect(held?.writableEnded).toBe(false);
  });

  it('SDK 0.3.14 has no idle time-out, so a stalled stream waits for ever; streamAgent ends it with StreamIdleTimeoutError', async () => {
    handler = (_req, res, body) => {
      eventStream(res);
      res.write(sseResult(requestId(body), working));
      held = res;
    };

    const events = sdkTransport().sendMessageStream(params);
    expect((await events.next()).done).toBe(false);
    const next = events.next();
    const settled = () => 'settled';
    const first = await Promise.race([next.then(settled, settled), sleep(300).then(() => 'waiting')]);
    expect(first).toBe('waiting');
    // Only the server can end it.
    held?.end();
    expect((await next).done).toBe(true);
    await server.responseClosed();

    const ours = await ourStream({ idleTimeoutMs: 200 });
    expect(ours.error).toBeInstanceOf(StreamIdleTimeoutError);
    expect((ours.error as StreamIdleTimeoutError).idleTimeoutMs).toBe(200);
    await server.responseClosed();
    expect(server.openConnections).toBe(0);
  });

  it('SDK 0.3.14 turns an HTTP error into a plain Error without status or Retry-After; streamAgent and getTask throw RateLimitError', async () => {
    handler = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
      res.end(JSON.stringify({ message: 'Too many requests' }));
    };

    for (const call of [
      () => sdkTransport().sendMessageStream(params).next(),
      () => sdkTransport().getTask({ id: 't-1' }),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(Object.getPrototypeOf(error)).toBe(Error.prototype);
      expect((error as Error).message).toContain('429');
      expect(error).not.toHaveProperty('status');
      expect(error).not.toHaveProperty('headers');
    }

    const streamed = await ourStream();
    const read = await getTask(dw, AGENT, 't-1').catch((e: unknown) => e);
    for (const error of [streamed.error, read]) {
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).status).toBe(429);
      expect((error as RateLimitError).headers.get('retry-after')).toBe('7');
    }
  });

  it('SDK 0.3.14 reports a JSON-RPC error in a JSON body as "Invalid response Content-Type"; streamAgent throws JsonRpcError', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: requestId(body),
          error: { code: -32602, message: 'Invalid params', data: { field: 'message' } },
        }),
      );
    };

    const raw = await sdkStream();
    expect((raw.error as Error).message).toBe(
      "Invalid response Content-Type for SSE stream for message/stream. Expected 'text/event-stream'.",
    );

    const ours = await ourStream();
    expect(ours.error).toBeInstanceOf(JsonRpcError);
    expect(ours.error).toMatchObject({ code: -32602, data: { field: 'message' } });
    expect((ours.error as JsonRpcError).message).toContain('Invalid params');
  });

  it('SDK 0.3.14 matches the content type case-sensitively; streamAgent reads a Text/Event-Stream', async () => {
    handler = (_req, res, body) => {
      eventStream(res, 'Text/Event-Stream; charset=utf-8');
      res.write(sseResult(requestId(body), working));
      res.end(sseResult(requestId(body), completed('Done')));
    };

    const raw = await sdkStream();
    expect(raw.events).toEqual([]);
    expect((raw.error as Error).message).toMatch(/^Invalid response Content-Type for SSE stream/);

    const ours = await ourStream();
    expect(ours.error).toBeUndefined();
    expect(ours.events.at(-1)).toMatchObject({ final: true, text: 'Done' });
  });

  it("SDK 0.3.14's error messages quote the server's data; streamAgent's StreamProtocolError quotes none of it", async () => {
    // Something a server could echo back; the SDK's 100-character cut may split it.
    const secret = 'tok_live_Q8v2Hx7Nw4Kp9Rz3';
    const data = `not json, token=${secret} ${'z'.repeat(200)}`;
    handler = (_req, res, body) => {
      eventStream(res);
      res.write(sseResult(requestId(body), working));
      res.end(`data: ${data}\n\n`);
    };

    const raw = await sdkStream();
    expect((raw.error as Error).message).toContain(data.slice(0, 100));
    expect((raw.error as Error).message).toContain(secret);

    const ours = await ourStream();
    expect(ours.error).toBeInstanceOf(StreamProtocolError);
    const shown = `${(ours.error as Error).message}\n${inspect(ours.error, { depth: 8 })}\n${JSON.stringify(ours.error)}`;
    expect(fragmentsOf(secret, shown)).toEqual([]);
    expect(shown).not.toContain('not json');
  });

  it('SDK 0.3.14 Client falls back to message/send when the card does not say it streams; streamAgent sends message/stream', async () => {
    const card = {
      protocolVersion: '0.3.0',
      name: 'No streaming',
      description: 'A card that does not say it streams',
      url: endpoint(),
      version: '1.0.0',
      capabilities: {
        streaming: false,
        extensions: [{ uri: `${server.url}/agents/ext/provided-values/v1` }],
      },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    } satisfies SdkAgentCard;
    handler = (req, res, body) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(card));
      } else if ((body as { method?: unknown }).method === 'message/send') {
        const { status } = completed('Sent, not streamed');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: requestId(body),
            result: { kind: 'task', id: 't-1', contextId: 'c-1', status },
          }),
        );
      } else {
        eventStream(res);
        res.write(sseResult(requestId(body), working));
        res.end(sseResult(requestId(body), completed('Streamed')));
      }
    };

    const raw = await drain(new Client(sdkTransport(), card).sendMessageStream(params));
    expect(raw.error).toBeUndefined();
    expect(raw.events).toEqual([expect.objectContaining({ kind: 'task', id: 't-1' })]);
    expect(methods).toEqual(['message/send']);

    methods.length = 0;
    paths.length = 0;
    // Context values make the run read the card, streaming: false and all (a new client: none cached).
    const fresh = new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0 });
    const ours = await drain(
      streamAgent(fresh, AGENT, { text: 'Hi', resume: false, contextValues: { userName: 'Ada' } }),
    );
    expect(ours.error).toBeUndefined();
    expect(paths[0]).toBe(`/api/agents/v1/a2a/${AGENT}/.well-known/agent-card.json`);
    expect(methods).toEqual(['message/stream']);
    expect(ours.events.at(-1)).toMatchObject({ final: true, text: 'Streamed' });
  });

  describe('the card resolver', () => {
    let emu: Emulator;
    let emuClient: Dataworkz;
    const agentId = seed.agents.orderStatus.agentId;

    beforeAll(async () => {
      emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
      emuClient = new Dataworkz({ baseUrl: emu.url, apiKey, maxRetries: 0 });
    });
    afterAll(() => emu.close());

    it("SDK 0.3.14's card resolver joins the card path with new URL, dropping the agent id; getAgentCard reads the agent's card", async () => {
      const base = `${emu.url}/api/agents/v1/a2a/${agentId}`;
      const error = await new DefaultAgentCardResolver({ fetchImpl: fetchWithKey })
        .resolve(base)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(
        `Failed to fetch Agent Card from ${emu.url}/api/agents/v1/a2a/.well-known/agent-card.json`,
      );

      const card = await getAgentCard(emuClient, agentId);
      expect(card.name).toEqual(expect.any(String));
      expect(JSON.stringify(card)).toContain(agentId);
    });

    it("SDK 0.3.14's card resolver reads only agent-card.json; getAgentCard falls back to agent.json on 404", async () => {
      const card = {
        protocolVersion: '0.3.0',
        name: 'Legacy',
        description: 'Served at agent.json only',
        url: endpoint(),
        version: '1.0.0',
        capabilities: { streaming: true },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      } satisfies SdkAgentCard;
      handler = (req, res) => {
        const found = req.url === `/api/agents/v1/a2a/${AGENT}/.well-known/agent.json`;
        res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(found ? card : { message: 'Not found' }));
      };

      // With a trailing slash the join keeps the agent id; the resolver still asks for one file only.
      const error = await new DefaultAgentCardResolver({ fetchImpl: fetchWithKey })
        .resolve(`${server.url}/api/agents/v1/a2a/${AGENT}/`)
        .catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/agent-card\.json: 404$/);
      expect(paths).toEqual([`/api/agents/v1/a2a/${AGENT}/.well-known/agent-card.json`]);

      expect(await getAgentCard(dw, AGENT)).toEqual(card);
    });

    it("SDK 0.3.14's card resolver rewrites a v1.0 card as a v0.3 one, dropping supportedInterfaces; getAgentCard keeps them", async () => {
      const supportedInterfaces = [{ url: endpoint(), protocolBinding: 'JSONRPC', protocolVersion: '1.0' }];
      const card = {
        name: 'Order status',
        description: 'A v1.0 card',
        version: '1.0.0',
        supportedInterfaces,
        capabilities: { streaming: true },
        securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'Authorization' } } },
        security: [{ schemes: { apiKey: { list: [] } } }],
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      };
      const cardPath = `/api/agents/v1/a2a/${AGENT}/.well-known/agent-card.json`;
      handler = (req, res) => {
        const found = req.url === cardPath;
        res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(found ? card : { message: 'Not found' }));
      };

      const rewritten = (await new DefaultAgentCardResolver({ fetchImpl: fetchWithKey }).resolve(
        `${server.url}${cardPath}`,
        '',
      )) as unknown as Record<string, unknown>;
      expect(paths).toEqual([cardPath]);
      expect(rewritten.name).toBe('Order status');
      expect(rewritten).not.toHaveProperty('supportedInterfaces');

      const ours = await getAgentCard(dw, AGENT);
      expect(ours).toEqual(card);
    });
  });
});
