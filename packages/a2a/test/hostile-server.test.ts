// The streaming and task calls against a server that misbehaves on purpose: silence, endless
// bodies, echoed credentials, odd Server-Sent Events.
import { inspect } from 'node:util';
import {
  cancelTask,
  getTask,
  NotAStreamError,
  StreamIdleTimeoutError,
  StreamProtocolError,
  streamAgent,
  TaskFailedError,
} from '@dataworkz/a2a';
import {
  APIConnectionTimeoutError,
  Dataworkz,
  DataworkzError,
  type Logger,
  ResponseTooLargeError,
} from '@dataworkz/client';
import { ContextValuesError } from '@dataworkz/context-values';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  completed,
  type RawHandler,
  type RawServer,
  requestId,
  sseResult,
  startRawServer,
  working,
} from './support/raw-server.js';

// Characters that never occur in the padding, so any fragment of the key found is a leak.
const apiKey = 'QZ7-a2a-probe-9XK4-WJ2M-8HTV-5RPN';

let handler: RawHandler = (_req, res) => {
  res.end();
};
let server: RawServer;
const received: unknown[] = [];

beforeAll(async () => {
  server = await startRawServer((req, res, body) => {
    received.push(body);
    return handler(req, res, body);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  received.length = 0;
});

function client(options: ConstructorParameters<typeof Dataworkz>[0] = {}): Dataworkz {
  return new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0, ...options });
}

/** Every piece of `secret` at least 6 characters long that the error shows anywhere. */
function fragmentsIn(error: unknown, secret = apiKey): string[] {
  const text = `${inspect(error, { depth: 8 })}\n${JSON.stringify(error)}\n${(error as Error).stack}`;
  const found: string[] = [];
  for (let start = 0; start + 6 <= secret.length; start++) {
    if (text.includes(secret.slice(start, start + 6))) found.push(secret.slice(start, start + 6));
  }
  return found;
}

async function runError(dw: Dataworkz, options: Parameters<typeof streamAgent>[2]): Promise<unknown> {
  const run = streamAgent(dw, 'agent-1', options);
  const error = await (async () => {
    for await (const _event of run) {
      // Consuming until the fault.
    }
  })().catch((e: unknown) => e);
  await expect(run.finalAnswer()).rejects.toBe(error);
  return error;
}

const silent: RawHandler = () => {
  // Reads the request and never answers.
};

describe('time until the response headers', () => {
  it("a stream whose server never answers ends at the client's timeout with APIConnectionTimeoutError", async () => {
    handler = silent;
    const error = await runError(client({ timeout: 200 }), { text: 'Hi', idleTimeoutMs: 60_000 });
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).not.toBeInstanceOf(StreamIdleTimeoutError);
    expect((error as Error).message).toMatch(
      /streamAgent: no response headers from http:\/\/127\.0\.0\.1:\d+ within 200 ms/,
    );
    await server.responseClosed();
    expect(server.openConnections).toBe(0);
  });

  it('headersTimeoutMs bounds the wait on its own', async () => {
    handler = silent;
    const error = await runError(client(), { text: 'Hi', headersTimeoutMs: 150 });
    expect((error as Error).message).toContain('within 150 ms');
  });

  it('once the stream has begun, the idle time-out takes over from the headers time-out', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseResult(requestId(body), working));
      setTimeout(() => res.end(sseResult(requestId(body), completed('late but fine'))), 2_000);
    };
    // The headers time-out (1 s, room for a busy machine) is long past when the answer comes; only the
    // idle one applies.
    const run = streamAgent(client({ timeout: 1_000 }), 'agent-1', { text: 'Hi', idleTimeoutMs: 5_000 });
    expect((await run.finalAnswer()).answer).toBe('late but fine');
  });

  it.each([
    ['getTask', getTask],
    ['cancelTask', cancelTask],
  ] as const)("%s against a silent server ends at the client's timeout", async (name, call) => {
    handler = silent;
    const error = await call(client({ timeout: 150 }), 'agent-1', 'task-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toContain(`${name}: no complete response`);
    const own = await call(client(), 'agent-1', 'task-1', { timeout: 120 }).catch((e: unknown) => e);
    expect((own as Error).message).toContain('within 120 ms');
  });
});

describe("a run's total timeout", () => {
  it('ends a stream that keep-alive comments hold open, with APIConnectionTimeoutError, and closes it', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseResult(requestId(body), working));
      const ping = setInterval(() => res.write(': keep-alive\n\n'), 20);
      res.on('close', () => clearInterval(ping));
    };
    const error = await runError(client(), { text: 'Hi', idleTimeoutMs: 1_000, timeout: 300 });
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toContain('timeout of 300 ms');
    await server.responseClosed();
    expect(server.openConnections).toBe(0);
  });

  it('is refused when not a positive number', () => {
    expect(() => streamAgent(client(), 'agent-1', { text: 'Hi', timeout: 0 })).toThrow(/timeout/);
    expect(() => streamAgent(client(), 'agent-1', { text: 'Hi', headersTimeoutMs: -1 })).toThrow(
      /headersTimeoutMs/,
    );
  });
});

describe('bodies the task calls read', () => {
  it('an endless getTask body stops at maxResponseBytes', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, ' ');
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    };
    const error = await getTask(client({ maxResponseBytes: 1024 * 1024 }), 'agent-1', 'task-1').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    await server.responseClosed();
  });

  it('a getTask body that is not JSON is a StreamProtocolError that quotes none of it', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"jsonrpc":"2.0","id":1,"result":${apiKey}}`);
    };
    const error = await getTask(client(), 'agent-1', 'task-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamProtocolError);
    expect(fragmentsIn(error)).toEqual([]);
  });

  it('getTask refreshes a token once after a 401', async () => {
    const seen: string[] = [];
    handler = (req, res, body) => {
      seen.push(req.headers.authorization ?? '');
      const ok = req.headers.authorization === 'Bearer fresh-token-000';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          ok
            ? {
                jsonrpc: '2.0',
                id: requestId(body),
                result: { kind: 'task', id: 'task-1', contextId: 'c', status: { state: 'working' } },
              }
            : { message: 'expired' },
        ),
      );
    };
    const dw = client({
      apiKey: undefined,
      token: ({ refresh }) => (refresh ? 'fresh-token-000' : 'stale-token-000'),
    });
    expect((await getTask(dw, 'agent-1', 'task-1')).status.state).toBe('working');
    expect(seen).toEqual(['Bearer stale-token-000', 'Bearer fresh-token-000']);
  });
});

describe('credentials the stream echoes', () => {
  it('as a JSON-RPC id, JSON-escaped (a key with " and \\), is scrubbed', async () => {
    const quoted = 'k"ey\\with-quote-and-backslash-9Q';
    handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sseResult(req.headers.authorization, working));
    };
    const error = await runError(client({ apiKey: quoted }), { text: 'Hi' });
    expect(error).toBeInstanceOf(StreamProtocolError);
    expect(fragmentsIn(error, quoted)).toEqual([]);
    expect(fragmentsIn(error, JSON.stringify(quoted).slice(1, -1))).toEqual([]);
  });

  it('in event data that is not JSON, no part of it is quoted', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: {"jsonrpc":"2.0","id":${apiKey} oops\n\n`);
    };
    const error = await runError(client(), { text: 'Hi' });
    expect(error).toBeInstanceOf(StreamProtocolError);
    expect(fragmentsIn(error)).toEqual([]);
  });

  it('straddling the 300-character cut of a NotAStreamError message leaves no fragment', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`${'.'.repeat(283)}SSWS ${apiKey}${'.'.repeat(40)}`);
    };
    const error = await runError(client(), { text: 'Hi' });
    expect(error).toBeInstanceOf(NotAStreamError);
    expect(fragmentsIn(error)).toEqual([]);
  });

  it('straddling the 300-character cut of a TaskFailedError message leaves no fragment', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const failed = completed(`${'.'.repeat(283)}SSWS ${apiKey}${'.'.repeat(40)}`);
      failed.status.state = 'failed';
      res.end(sseResult(requestId(body), failed));
    };
    const run = streamAgent(client(), 'agent-1', { text: 'Hi' });
    const error = await run.finalAnswer().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(fragmentsIn(error)).toEqual([]);
  });

  it('with a token minted per call, each run scrubs the exact token it sent', async () => {
    let minted = 0;
    const tokens: string[] = [];
    const dw = client({
      apiKey: undefined,
      token: () => {
        const token = `QXV7-${String(++minted).padStart(4, '0')}-WJ2M-8HTV-5RPN`;
        tokens.push(token);
        return token;
      },
    });
    handler = (req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(sseResult(req.headers.authorization, working));
      }, 50);
    };
    const errors = await Promise.all(Array.from({ length: 8 }, () => runError(dw, { text: 'Hi' })));
    expect(tokens).toHaveLength(8);
    for (const error of errors) for (const token of tokens) expect(fragmentsIn(error, token)).toEqual([]);
  });
});

describe('Server-Sent Events beyond A2A results', () => {
  it('named events other than message and error, and events with empty data, are skipped with a debug line', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: ping\ndata: {}\n\n');
      res.write('data:\n\n');
      res.write(sseResult(requestId(body), working));
      res.end(sseResult(requestId(body), completed('done')));
    };
    const lines: string[] = [];
    const logger: Logger = { error() {}, warn() {}, info() {}, debug: (line) => lines.push(line) };
    const run = streamAgent(client({ logLevel: 'debug', logger }), 'agent-1', { text: 'Hi' });
    expect((await run.finalAnswer()).answer).toBe('done');
    expect(lines).toContain('[dataworkz] agent stream: skipped an event of type "ping"');
    expect(lines).toContain('[dataworkz] agent stream: skipped an event with empty data');
  });
});

describe('context values', () => {
  it('ContextValuesError belongs to the client error family', () => {
    expect(new ContextValuesError('bad', 'contextValues.x')).toBeInstanceOf(DataworkzError);
    expect(new Error('plain')).not.toBeInstanceOf(DataworkzError);
  });

  it('a getter that throws is a ContextValuesError naming the path; nothing is sent', () => {
    const values = {
      get user(): string {
        throw new Error('getter broke');
      },
    };
    let caught: unknown;
    try {
      streamAgent(client(), 'agent-1', { text: 'Hi', contextValues: values, extensionUri: 'urn:x' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ContextValuesError);
    expect(caught).toMatchObject({ path: 'contextValues.user', parameter: 'contextValues' });
    expect(received).toEqual([]);
  });

  it('a value whose getter changes after the call sends what was checked', async () => {
    let reads = 0;
    const values = {
      get tier() {
        reads += 1;
        return reads === 1 ? 'gold' : (Symbol('changed') as unknown as string);
      },
    };
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sseResult(requestId(body), completed('ok')));
    };
    const run = streamAgent(client(), 'agent-1', {
      text: 'Hi',
      contextValues: values,
      extensionUri: 'urn:x',
    });
    expect((await run.finalAnswer()).answer).toBe('ok');
    const sent = received[0] as { params: { message: { parts: Array<{ kind: string; data?: unknown }> } } };
    expect(sent.params.message.parts.find((part) => part.kind === 'data')?.data).toEqual({ tier: 'gold' });
    expect(reads).toBe(1);
  });
});
