import { inspect } from 'node:util';
import {
  IncompleteStreamError,
  JsonRpcError,
  NoLlmError,
  NotAStreamError,
  StreamEventTooLargeError,
  StreamIdleTimeoutError,
  StreamProtocolError,
  streamAgent,
} from '@dataworkz/a2a';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  Dataworkz,
  DataworkzError,
  InternalServerError,
  RateLimitError,
} from '@dataworkz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completed,
  type RawHandler,
  type RawServer,
  requestId,
  sseResult,
  startRawServer,
  working,
} from './support/raw-server.js';
import { verbose } from './support/verbose.js';

// Recognisable, so that a leak anywhere is found.
const apiKey = 'dwk-SECRET-7c1d9e22-a2a-fault-suite';

let handler: RawHandler = (_req, res) => {
  res.end();
};
let server: RawServer;
let dw: Dataworkz;

beforeAll(async () => {
  server = await startRawServer((req, res, body) => handler(req, res, body));
  dw = new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0 });
});
afterAll(() => server.close());

const outcomes: string[] = [];

// These faults are about what each break is called, so the run does not resume (resume.test.ts does).
async function failure(options: Parameters<typeof streamAgent>[2] = { text: 'Hi' }): Promise<DataworkzError> {
  const run = streamAgent(dw, 'agent-1', { resume: false, ...options });
  let caught: unknown;
  try {
    for await (const _event of run) {
      // Consuming until the fault.
    }
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DataworkzError);
  await expect(run.finalAnswer()).rejects.toBe(caught);
  const error = caught as DataworkzError;
  assertNoSecret(error);
  await server.responseClosed();
  expect(server.openConnections).toBe(0);
  outcomes.push(`${expect.getState().currentTestName}: ${error.name}`);
  return error;
}

function assertNoSecret(error: unknown): void {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    for (const text of [
      current.message,
      current.stack ?? '',
      JSON.stringify(current),
      inspect(current, { depth: 6 }),
    ]) {
      expect(text).not.toContain(apiKey);
    }
  }
}

describe('stream faults', () => {
  afterAll(() => {
    if (verbose) console.log(`stream faults injected: ${outcomes.length}\n  ${outcomes.join('\n  ')}`);
  });

  it('a stream that ends before its final event is an IncompleteStreamError', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sseResult(requestId(body), working));
    };
    const error = await failure();
    expect(error).toBeInstanceOf(IncompleteStreamError);
    expect((error as IncompleteStreamError).lastEvent).toMatchObject({
      kind: 'status-update',
      status: { state: 'working' },
    });
  });

  it('a final event cut off mid-line is dropped: an IncompleteStreamError', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `data: ${JSON.stringify({ jsonrpc: '2.0', id: requestId(body), result: completed('Done') }).slice(0, 60)}`,
      );
    };
    expect(await failure()).toBeInstanceOf(IncompleteStreamError);
  });

  it('an empty event stream is an IncompleteStreamError', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(': nothing to say\n\n');
    };
    expect(await failure()).toBeInstanceOf(IncompleteStreamError);
  });

  it('a connection dropped mid-stream is an APIConnectionError', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseResult(requestId(body), working));
      res.write('data: {"jsonrpc":"2.0","id":');
      setImmediate(() => res.socket?.destroy());
    };
    const error = await failure();
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('a connection reset before the headers is an APIConnectionError', async () => {
    handler = (req) => {
      req.socket.destroy();
    };
    expect(await failure()).toBeInstanceOf(APIConnectionError);
  });

  it('a stalled stream ends with StreamIdleTimeoutError and closes the connection', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseResult(requestId(body), working));
      // Then nothing, until the client gives up.
    };
    const error = await failure({ text: 'Hi', idleTimeoutMs: 150 });
    expect(error).toBeInstanceOf(StreamIdleTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as StreamIdleTimeoutError).idleTimeoutMs).toBe(150);
  });

  it('an oversized event ends with StreamEventTooLargeError', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sseResult(requestId(body), completed('x'.repeat(20_000))));
    };
    const error = await failure({ text: 'Hi', maxEventBytes: 4096 });
    expect(error).toBeInstanceOf(StreamEventTooLargeError);
    expect((error as StreamEventTooLargeError).maxEventBytes).toBe(4096);
  });

  it('an endless line without a line break ends with StreamEventTooLargeError', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = 'y'.repeat(1024);
      res.write('data: ');
      const pump = () => {
        if (!res.destroyed) res.write(chunk, () => setImmediate(pump));
      };
      pump();
    };
    expect(await failure({ text: 'Hi', maxEventBytes: 64 * 1024 })).toBeInstanceOf(StreamEventTooLargeError);
  });

  it('a JSON-RPC error inside the stream is a JsonRpcError with code and data', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseResult(requestId(body), working));
      res.end(
        `event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: requestId(body), error: { code: -32001, message: 'Task not found', data: { taskId: 't-9' } } })}\n\n`,
      );
    };
    const error = await failure();
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32001, data: { taskId: 't-9' } });
    expect(error.message).toContain('Task not found');
  });

  it('a JSON-RPC error saying no LLM could be determined is a NoLlmError', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: requestId(body),
          error: { code: -32603, message: 'No LLM configured for the agent and no default LLM' },
        }),
      );
    };
    const error = await failure();
    expect(error).toBeInstanceOf(NoLlmError);
    expect(error.cause).toBeInstanceOf(JsonRpcError);
  });

  it("a JSON body where the stream was expected is a NotAStreamError showing the server's message", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Agent execution timed out', timeout: 300000 }));
    };
    const error = await failure();
    expect(error).toBeInstanceOf(NotAStreamError);
    expect(error.message).toContain('Agent execution timed out');
    expect((error as NotAStreamError).body).toEqual({
      message: 'Agent execution timed out',
      timeout: 300000,
    });
    expect((error as NotAStreamError).status).toBe(200);
  });

  it('the documented `{ timeout }` body is shown as it came', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"timeout":300000}');
    };
    expect((await failure()).message).toContain('{"timeout":300000}');
  });

  it('a wrong content type is a NotAStreamError', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    };
    const error = await failure();
    expect(error).toBeInstanceOf(NotAStreamError);
    expect(error.message).toContain('text/html');
    expect(error.message).toContain('maintenance');
  });

  it('event data that is not JSON is a StreamProtocolError', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"jsonrpc": "2.0", "id": \n\n');
    };
    expect(await failure()).toBeInstanceOf(StreamProtocolError);
  });

  it('an event for another request id is a StreamProtocolError', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sseResult('someone-else', completed('Not yours')));
    };
    expect(await failure()).toBeInstanceOf(StreamProtocolError);
  });

  it.each([
    [500, InternalServerError],
    [503, InternalServerError],
    [429, RateLimitError],
  ])('HTTP %i maps to the client error class', async (status, ErrorClass) => {
    handler = (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ status, error: 'Failure', message: `status ${status}, key ${apiKey}` }));
    };
    const error = await failure();
    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as InternalServerError).status).toBe(status);
  });
});

describe('tolerance', () => {
  it('reads CRLF line endings, comments, unknown fields, multi-line data and a last event without its blank line', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'Text/Event-Stream; charset=utf-8' });
      const id = requestId(body);
      res.write(': keep-alive\r\n\r\nretry: 1000\r\nunknown: field\r\n');
      res.write(
        `id: 1\r\nevent: message\r\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: working })}\r\n\r\n`,
      );
      res.end(
        `data: ${JSON.stringify(
          { jsonrpc: '2.0', id, result: completed('Done, with \\"quotes\\" and\\nnewlines') },
          null,
          2,
        )
          .split('\n')
          .join('\r\ndata: ')}\r\n`,
      );
    };
    const { answer, state } = await streamAgent(dw, 'agent-1', { text: 'Hi' }).finalAnswer();
    expect(state).toBe('completed');
    expect(answer).toBe('Done, with \\"quotes\\" and\\nnewlines');
  });

  it('stops at the final event even when the server keeps the connection open', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseResult(requestId(body), completed('All done')));
    };
    const { answer } = await streamAgent(dw, 'agent-1', { text: 'Hi', idleTimeoutMs: 0 }).finalAnswer();
    expect(answer).toBe('All done');
    await server.responseClosed();
    expect(server.openConnections).toBe(0);
  });
});
