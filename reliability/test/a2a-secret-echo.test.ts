import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { streamAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Recognisable credentials, so that a leak anywhere is found.
const KEY = 'dwk-ECHO-SECRET-KEY-5b0e7d1c';
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.ECHO-SECRET-TOKEN.c2ln';

type Echo = (res: ServerResponse, id: unknown, credential: string) => void;
let echo: Echo = () => {};
let server: Server;
let url = '';

function event(res: ServerResponse, value: unknown): void {
  res.write(`data: ${JSON.stringify(value)}\n\n`);
}

const task = (id: unknown, credential: string, state: string, final: boolean) => ({
  jsonrpc: '2.0',
  id,
  result: {
    kind: 'status-update',
    taskId: 't-1',
    contextId: 'c-1',
    final,
    status: {
      state,
      message: {
        kind: 'message',
        role: 'agent',
        messageId: 'm-1',
        parts: [{ kind: 'text', text: `your credential is ${credential}` }],
      },
    },
  },
});

// A careless or hostile agent that repeats the credential it received in every place it can.
const echoes: Array<[string, Echo]> = [
  [
    'a JSON body where the stream was expected',
    (res, _id, credential) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `rejected ${credential}`, authorization: credential }));
    },
  ],
  [
    'a JSON-RPC error before the stream',
    (res, id, credential) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          error: { code: -32602, message: `bad ${credential}`, data: { credential } },
        }),
      );
    },
  ],
  [
    'a JSON-RPC error inside the stream',
    (res, id, credential) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      event(res, {
        jsonrpc: '2.0',
        id,
        error: { code: -32001, message: `bad ${credential}`, data: { credential } },
      });
      res.end();
    },
  ],
  [
    'a failed task whose answer repeats the credential',
    (res, id, credential) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      event(res, task(id, credential, 'failed', true));
      res.end();
    },
  ],
  [
    'a stream cut short after an event repeating the credential',
    (res, id, credential) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      event(res, task(id, credential, 'working', false));
      res.end();
    },
  ],
  [
    'a 401 repeating the credential',
    (res, _id, credential) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 401, message: `unknown key ${credential}` }));
    },
  ],
];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const credential = (req.headers.authorization ?? '').replace(/^(SSWS|Bearer) /, '');
      let id: unknown = null;
      try {
        id = (JSON.parse(body) as { id?: unknown }).id;
      } catch {
        // Not JSON-RPC; the echo does not need the id.
      }
      echo(res, id, credential);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function leaks(error: unknown, secrets: string[]): string[] {
  const found: string[] = [];
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const views = {
      message: current.message,
      stack: current.stack ?? '',
      json: JSON.stringify(current),
      inspect: inspect(current, { depth: 10, showHidden: true }),
    };
    for (const [view, text] of Object.entries(views)) {
      for (const secret of secrets) if (text.includes(secret)) found.push(`${current.name} ${view}`);
    }
  }
  return found;
}

describe('no agent stream error carries the credential a server echoed', () => {
  const clients: Array<[string, () => Dataworkz, string]> = [
    ['api key', () => new Dataworkz({ baseUrl: url, apiKey: KEY, maxRetries: 0 }), KEY],
    ['token function', () => new Dataworkz({ baseUrl: url, token: async () => TOKEN, maxRetries: 0 }), TOKEN],
  ];
  for (const [credential, client, secret] of clients) {
    it.each(echoes)(`with an ${credential}: %s`, async (_name, reply) => {
      echo = reply;
      const error = await streamAgent(client(), 'agent-1', { text: 'Hi' })
        .finalAnswer()
        .then(
          () => new Error('the run did not fail'),
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).not.toBe('the run did not fail');
      expect(leaks(error, [secret])).toEqual([]);
    });
  }
});
