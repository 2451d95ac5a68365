// Protocol selection from agent cards, and what each version sends and reads through the SDK's
// client: a v1.0 server's JSON (the v1.0 specification's JSON-RPC binding, proto JSON names) comes out
// in the v0.3 shapes the run reads.
import { type AgentEvent, getAgentCard, getTask, StreamProtocolError, streamAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectProtocol, UnsupportedProtocolError } from '../src/protocol.js';
import { type RawServer, startRawServer } from './support/raw-server.js';

const apiKey = 'protocol-key';
let emu: Emulator;
let dw: Dataworkz;

interface Seen {
  headers: Record<string, string | string[] | undefined>;
  body: { method: string; id: unknown; params: unknown };
}
let server: RawServer;
let seen: Seen[] = [];
/** What the raw server answers each JSON-RPC method with: SSE results, or one JSON result. */
let results: { stream: unknown[]; task?: unknown } = { stream: [] };

beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey, maxRetries: 0 });
  server = await startRawServer((req, res, body) => {
    const request = body as Seen['body'];
    seen.push({ headers: req.headers, body: request });
    if (req.headers.accept === 'text/event-stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const result of results.stream) {
        res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: request.id, result })}\n\n`);
      }
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: results.task }));
    }
  });
});
afterAll(async () => {
  await emu.close();
  await server.close();
});

async function events(protocol: '0.3' | '1.0', stream: unknown[]): Promise<AgentEvent[]> {
  seen = [];
  results = { stream };
  const raw = new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0 });
  const out: AgentEvent[] = [];
  const run = streamAgent(raw, 'agent-1', {
    text: 'Where is order 42?',
    parts: [{ kind: 'file', file: { uri: 'https://files.example/a.png', mimeType: 'image/png' } }],
    metadata: { 'urn:ext': { a: 1 } },
    extensions: ['urn:a', 'urn:b'],
    protocol,
    resume: false,
  });
  try {
    for await (const event of run) out.push(event);
  } catch {
    // A stream without a final event: the events before it are what is looked at.
  }
  return out;
}

const v1Card = {
  name: 'Order status',
  supportedInterfaces: [
    { url: 'https://agents.example/grpc', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    { url: 'https://agents.example/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'https://agents.example/v03', protocolBinding: 'JSONRPC', protocolVersion: '0.3.0' },
  ],
};

describe('selectProtocol', () => {
  it('reads the emulator’s card (the service’s v0.3 card) as v0.3 at the card’s url', async () => {
    const card = await getAgentCard(dw, seed.agents.orderStatus.agentId);
    const choice = selectProtocol(card);
    expect(choice.version).toBe('0.3');
    expect(choice.url).toBe((card as { url?: string }).url);
    expect(selectProtocol(card, '0.3').version).toBe('0.3');
    expect(() => selectProtocol(card, '1.0')).toThrow(UnsupportedProtocolError);
  });

  it('prefers the JSON-RPC v1.0 interface of a v1.0 card, and can be forced to its v0.3 one', () => {
    expect(selectProtocol(v1Card)).toEqual({ version: '1.0', url: 'https://agents.example/v1' });
    expect(selectProtocol(v1Card, '0.3')).toEqual({ version: '0.3', url: 'https://agents.example/v03' });
  });

  it('takes later v1 minors as v1.0 and refuses cards offering no version it speaks', () => {
    const minor = { supportedInterfaces: [{ url: 'u', protocolBinding: 'JSONRPC', protocolVersion: '1.2' }] };
    expect(selectProtocol(minor).version).toBe('1.0');
    const grpcOnly = { supportedInterfaces: [{ url: 'u', protocolBinding: 'GRPC', protocolVersion: '1.0' }] };
    expect(() => selectProtocol(grpcOnly)).toThrow(UnsupportedProtocolError);
    const old = { protocolVersion: '0.2.5', url: 'u' };
    const error = (() => {
      try {
        selectProtocol(old);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedProtocolError);
    expect((error as UnsupportedProtocolError).offered).toEqual(['0.2.5']);
    expect(() => selectProtocol(undefined)).toThrow(UnsupportedProtocolError);
  });
});

describe('what each version sends', () => {
  it('v0.3: message/stream, the message as given, X-A2A-Extensions, no A2A-Version', async () => {
    await events('0.3', [
      { kind: 'status-update', taskId: 't1', contextId: 'c1', final: true, status: { state: 'completed' } },
    ]);
    const [request] = seen;
    expect(request?.body.method).toBe('message/stream');
    expect(request?.headers['x-a2a-extensions']).toBe('urn:a, urn:b');
    expect(request?.headers['a2a-version']).toBeUndefined();
    expect(request?.body.params).toMatchObject({
      message: {
        kind: 'message',
        role: 'user',
        parts: [
          { kind: 'text', text: 'Where is order 42?' },
          { kind: 'file', file: { uri: 'https://files.example/a.png', mimeType: 'image/png' } },
        ],
      },
    });
  });

  it('v1.0: SendStreamingMessage, A2A-Version and A2A-Extensions, a message without kinds, ROLE_* and flat parts', async () => {
    await events('1.0', [
      { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } } },
    ]);
    const [request] = seen;
    expect(request?.body.method).toBe('SendStreamingMessage');
    expect(request?.headers['a2a-version']).toBe('1.0');
    expect(request?.headers['a2a-extensions']).toBe('urn:a, urn:b');
    const { message } = (request as Seen).body.params as { message: Record<string, unknown> };
    expect(message).toMatchObject({
      role: 'ROLE_USER',
      parts: [{ text: 'Where is order 42?' }, { url: 'https://files.example/a.png', mediaType: 'image/png' }],
      metadata: { 'urn:ext': { a: 1 } },
    });
    expect(message.kind).toBeUndefined();
  });
});

describe('the v1.0 wire, read by the SDK 1.x client', () => {
  it('turns a status update into a v0.3 one, final when its state ends the stream', async () => {
    const [working, done] = await events('1.0', [
      {
        statusUpdate: {
          taskId: 't1',
          contextId: 'c1',
          status: {
            state: 'TASK_STATE_WORKING',
            message: {
              messageId: 'm1',
              role: 'ROLE_AGENT',
              parts: [{ text: 'Looking', metadata: { step: 1 } }],
            },
          },
          metadata: { step: 1 },
        },
      },
      { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } } },
    ]);
    expect(working?.raw).toEqual({
      kind: 'status-update',
      taskId: 't1',
      contextId: 'c1',
      final: false,
      status: {
        state: 'working',
        message: {
          kind: 'message',
          messageId: 'm1',
          role: 'agent',
          parts: [{ kind: 'text', text: 'Looking', metadata: { step: 1 } }],
        },
      },
      metadata: { step: 1 },
    });
    expect(done).toMatchObject({ type: 'status', final: true, state: 'completed' });
  });

  it('turns artifact chunks, tasks and parts of every kind into v0.3 shapes', async () => {
    const [first, chunk] = await events('1.0', [
      { task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_SUBMITTED' } } },
      {
        artifactUpdate: {
          taskId: 't1',
          contextId: 'c1',
          artifact: { artifactId: 'a1', name: 'answer', parts: [{ text: 'Hel' }] },
          append: true,
          lastChunk: false,
        },
      },
    ]);
    expect(first).toMatchObject({ type: 'task', taskId: 't1', state: 'submitted' });
    expect(chunk?.raw).toEqual({
      kind: 'artifact-update',
      taskId: 't1',
      contextId: 'c1',
      artifact: { artifactId: 'a1', name: 'answer', parts: [{ kind: 'text', text: 'Hel' }] },
      append: true,
      lastChunk: false,
    });

    results = {
      stream: [],
      task: {
        id: 't1',
        contextId: 'c1',
        status: { state: 'TASK_STATE_INPUT_REQUIRED', timestamp: '2026-03-01T00:00:00Z' },
        artifacts: [
          {
            artifactId: 'a2',
            parts: [
              { url: 'https://files.example/x.pdf', mediaType: 'application/pdf' },
              { data: [1, 2] },
              { data: { type: 'TOOL' } },
            ],
          },
        ],
        history: [{ messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
      },
    };
    const raw = new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0 });
    const task = await getTask(raw, 'agent-1', 't1', { protocol: '1.0' });
    expect(seen.at(-1)?.body.method).toBe('GetTask');
    expect(task.status).toEqual({ state: 'input-required', timestamp: '2026-03-01T00:00:00Z' });
    expect(task.artifacts?.[0]?.parts).toEqual([
      { kind: 'file', file: { mimeType: 'application/pdf', uri: 'https://files.example/x.pdf' } },
      { kind: 'data', data: { value: [1, 2] } },
      { kind: 'data', data: { type: 'TOOL' } },
    ]);
    expect(task.history?.[0]).toEqual({
      kind: 'message',
      messageId: 'u1',
      role: 'user',
      parts: [{ kind: 'text', text: 'hi' }],
    });
  });

  it('rejects results that are no v1.0 stream event with a typed error', async () => {
    const raw = new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0 });
    for (const result of [
      { kind: 'status-update' },
      { message: { messageId: 'm', parts: [{ nothing: 1 }] } },
    ]) {
      results = { stream: [result] };
      const run = streamAgent(raw, 'agent-1', { text: 'Hi', protocol: '1.0', resume: false });
      await expect(run.finalAnswer()).rejects.toBeInstanceOf(StreamProtocolError);
    }
  });
});
