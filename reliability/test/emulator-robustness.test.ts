import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { seed } from '@dataworkz/emulator';
import { type RawAnswer, type RawRequest, rawRequest, sendBytes } from '@dataworkz/measure';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ChildMemory } from '../src/emulator-child.js';
import { EmulatorProcess } from '../src/emulator-process.js';

const MAX_BODY_BYTES = 64 * 1024;
const agentId = seed.agents.orderStatus.agentId;
const systemId = seed.systems.productDocs.systemId;
const streamPath = `/api/agents/v1/a2a/${agentId}/stream`;

// The spec's operations, each with the method it answers and a regular expression for its path: the
// same list the emulator routes by (its operationIds are checked against it below).
const spec = parse(readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; 'x-beyond-contract'?: boolean }>>;
};
const specOperations = Object.entries(spec.paths).flatMap(([template, methods]) =>
  Object.entries(methods)
    .filter(([method]) => method === 'get' || method === 'post')
    .map(([method, operation]) => ({
      id: operation.operationId,
      method: method.toUpperCase() as 'GET' | 'POST',
      template,
      contract: operation['x-beyond-contract'] !== true,
    })),
);
const seeded = (template: string) => template.replace('{agentId}', agentId).replace('{systemId}', systemId);
// The 13 operations of the published contract, with seeded ids: one method a path, so that the other
// method is a wrong one.
const operations = specOperations
  .filter((operation) => operation.contract)
  .map(({ method, template }): [method: 'GET' | 'POST', path: string] => [method, seeded(template)]);
const templates = specOperations.map(
  ({ template }) => new RegExp(`^${template.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
);
// Operations that refuse a request without their required query parameters.
const withRequiredParams = ['respondToAgent', 'searchQnaSystem', 'answerQnaQuestion', 'getQnaDocument'].map(
  (id): [method: 'GET' | 'POST', path: string] => {
    const operation = specOperations.find((o) => o.id === id);
    if (!operation) throw new Error(`the spec has no operation ${id}`);
    return [operation.method, seeded(operation.template)];
  },
);
const parameterNames = new Set(['query', 'questionText', 'llmProviderId', 'documentId', 'userText']);

let emu: EmulatorProcess;
let origin: URL;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The JSON-RPC error of a body that is one, as JSON or as the only event of an event stream. */
function jsonRpcError(answer: RawAnswer): { code: number; message: string } | undefined {
  const text = answer.contentType.startsWith('text/event-stream')
    ? answer.text.trim().replace(/^data: /, '')
    : answer.text;
  const error = (parseJson(text) as { jsonrpc?: unknown; error?: unknown } | undefined)?.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'number' && typeof message === 'string' ? { code, message } : undefined;
}

/**
 * Asserts a refusal: a 4xx with a JSON body in the spec's Error shape or, where the A2A layer speaks,
 * a JSON-RPC error that blames the request (never -32603, the internal error).
 */
function expectRefusal(category: string, request: string, answer: RawAnswer, allowJsonRpc = false): void {
  const label = `${category}: ${request.slice(0, 300)} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  if (answer.status >= 400 && answer.status < 500) {
    expect(answer.contentType, label).toMatch(/^application\/json/);
    expect(parseJson(answer.text), label).toMatchObject({
      status: answer.status,
      error: expect.any(String),
      message: expect.any(String),
    });
    return;
  }
  const rpcError = allowJsonRpc && answer.status === 200 ? jsonRpcError(answer) : undefined;
  expect(rpcError, label).toBeDefined();
  expect(rpcError?.code, label).not.toBe(-32603);
  expect(rpcError?.code, label).toBeLessThanOrEqual(-32000);
}

/** A request through the kept-alive agent (the emulator must survive pooled connections too). */
function send({ path, ...init }: RawRequest & { path: string }): Promise<RawAnswer> {
  return rawRequest(origin, path, { ...init, agent });
}

function auth(): Record<string, string> {
  return { authorization: `SSWS ${emu.apiKey}` };
}

let before: ChildMemory;

beforeAll(async () => {
  emu = await EmulatorProcess.start({
    apiKeys: ['robustness-key-0123456789'],
    limits: { maxBodyBytes: MAX_BODY_BYTES },
  });
  origin = new URL(emu.url);
  // The emulator routes every operation of the spec (its fault routes name them all).
  const faults = await send({ method: 'GET', path: '/_emulator/faults', headers: auth() });
  const routes = (JSON.parse(faults.text) as { routes: string[] }).routes;
  expect(routes).toEqual(expect.arrayContaining(specOperations.map((operation) => operation.id)));
  expect(operations).toHaveLength(13);
  // Warm up every route once so module loading and caches are not counted as growth.
  for (const [method, path] of operations) await send({ method, path, headers: auth() });
  before = await emu.memory();
});

afterAll(async () => {
  agent.destroy();
  await emu?.close();
});

const jsonRpcRequest = fc
  .record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.string({ maxLength: 5 }), fc.integer()),
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), fc.object({ maxDepth: 1 })),
      method: fc.oneof(
        fc.constantFrom(
          'message/stream',
          'message/send',
          'tasks/get',
          'tasks/cancel',
          'tasks/resubscribe',
          'tasks/pushNotificationConfig/set',
          'agent/getAuthenticatedExtendedCard',
        ),
        fc.string({ maxLength: 20 }),
      ),
      params: fc.oneof(
        fc.object({ maxDepth: 2 }),
        fc.jsonValue({ maxDepth: 1 }),
        fc.record({ id: fc.string({ maxLength: 10 }) }),
        // A message missing its messageId, so no generated request is a valid one that starts an agent.
        fc.record({
          message: fc.record(
            {
              kind: fc.constantFrom('message', 'task', 'x'),
              role: fc.constantFrom('user', 'agent', 'x'),
              parts: fc.oneof(
                fc.array(fc.record({ kind: fc.constantFrom('text', 'data', 'file'), text: fc.string() })),
                fc.object({ maxDepth: 1 }),
              ),
              contextId: fc.string({ maxLength: 10 }),
            },
            { requiredKeys: [] },
          ),
        }),
      ),
    },
    { requiredKeys: [] },
  )
  .map((request) => JSON.stringify(request));

describe('the emulator answers malformed requests with a 4xx JSON body, never a 5xx or a crash', () => {
  it('bad JSON-RPC on the agent stream', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 200 }), fc.json({ maxDepth: 4 }), jsonRpcRequest, jsonRpcRequest),
        fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', ''),
        async (body, contentType) => {
          const headers = contentType ? { ...auth(), 'content-type': contentType } : auth();
          const answer = await send({ method: 'POST', path: streamPath, headers, body });
          expectRefusal('bad JSON-RPC', body, answer, true);
        },
      ),
      { numRuns: 2500 },
    );
  });

  it('bodies over the size limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.integer({ min: MAX_BODY_BYTES + 1, max: 2 * 1024 * 1024 }),
        fc.constantFrom('x', '{', '€'),
        async ([, path], size, filler) => {
          const body = Buffer.alloc(size, filler);
          const answer = await send({ method: 'POST', path, headers: auth(), body });
          expect(answer.status, `${size} bytes to ${path}`).toBe(413);
          expectRefusal('huge bodies', `${size} bytes to ${path}`, answer);
        },
      ),
      { numRuns: 300 },
    );
  });

  const requestLine = fc
    .tuple(fc.constantFrom(...operations), fc.constantFrom('GET', 'POST'))
    .map(([[, path], method]) => `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
  const control = fc
    .integer({ min: 0, max: 0x1f })
    .filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d)
    .map((c) => String.fromCharCode(c));
  const tokenText = fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz-0123456789'),
    maxLength: 12,
  });
  const malformedHead = fc.oneof(
    fc
      .tuple(requestLine, tokenText, control, tokenText)
      .map(([line, a, c, b]) => `${line}X-Test: ${a}${c}${b}\r\n\r\n`),
    fc
      .tuple(requestLine, tokenText, fc.constantFrom(...'()<>@,;\\"/[]?={} '), tokenText)
      .map(([line, a, bad, b]) => `${line}X-${a}${bad}${b}: value\r\n\r\n`),
    fc.tuple(requestLine, tokenText).map(([line, text]) => `${line}no colon here ${text}\r\n\r\n`),
    fc
      .tuple(requestLine, fc.string({ unit: fc.constantFrom(...'abc-+ x.'), minLength: 1, maxLength: 6 }))
      .map(([line, length]) => `${line}Content-Length: ${length}\r\n\r\n`),
    requestLine.map((line) => `${line}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`),
    requestLine.map((line) => `${line}Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n`),
    fc
      .tuple(requestLine, fc.integer({ min: 17 * 1024, max: 64 * 1024 }))
      .map(([line, size]) => `${line}X-Big: ${'b'.repeat(size)}\r\n\r\n`),
    fc
      .string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ/.%?#'), minLength: 1, maxLength: 30 })
      .map((line) => `${line}\r\n\r\n`),
    fc.constantFrom(...operations).map(([method, path]) => `${method} ${path} HTTP/9.9\r\nHost: x\r\n\r\n`),
  );

  it('headers and request lines node:http would refuse to send', async () => {
    await fc.assert(
      fc.asyncProperty(malformedHead, async (bytes) => {
        const answer = await sendBytes(origin, bytes);
        expect(answer.status, JSON.stringify(bytes.slice(0, 200))).toBe(400);
        expectRefusal('bad headers (raw bytes)', JSON.stringify(bytes), answer);
      }),
      { numRuns: 1500 },
    );
  });

  it('credentials that are missing, malformed or wrong', async () => {
    const printable = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      maxLength: 60,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.oneof(
          fc.constant(undefined),
          printable,
          printable.map((text) => `SSWS ${text}`),
          printable.map((text) => `Bearer ${text}`),
          fc.constant(`SSWS ${'robustness-key-0123456789'.toUpperCase()}`),
          fc.constant('Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'),
        ),
        fc.dictionary(
          tokenText.filter((name) => name.length > 0 && name !== 'authorization'),
          printable,
          {
            maxKeys: 4,
          },
        ),
        async ([method, path], authorization, extra) => {
          const headers = authorization === undefined ? extra : { ...extra, authorization };
          const answer = await send({ method, path, headers });
          expect(answer.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
          expectRefusal('bad credentials', `${method} ${path}`, answer);
        },
      ),
      { numRuns: 1000 },
    );
  });

  const queryText = fc
    .array(
      fc.tuple(
        fc.string({ maxLength: 12 }).filter((name) => !parameterNames.has(name)),
        fc.string({ maxLength: 40 }),
        fc.boolean(),
      ),
      { maxLength: 6 },
    )
    .map((pairs) =>
      pairs
        // Half the pairs go raw (only what node:http lets through), half percent-encoded.
        .map(([name, value, raw]) =>
          raw
            ? `${name}=${value}`.replace(/[^\x21-\x7e]/g, '')
            : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
        )
        .join('&'),
    );

  it('random query strings without the required parameters, and without credentials', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withRequiredParams),
        queryText,
        fc.boolean(),
        async ([method, path], query, authorized) => {
          const request: RawRequest & { path: string } = {
            method,
            path: `${path}?${query}`,
            ...(authorized ? { headers: auth() } : {}),
          };
          const answer = await send(request);
          expect(answer.status, `${request.path}`).toBe(authorized ? 400 : 401);
          expectRefusal('random query strings', request.path, answer);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('wrong methods', async () => {
    const knownWrong = fc.constantFrom(
      'PUT',
      'PATCH',
      'DELETE',
      'TRACE',
      'PROPFIND',
      'MKCOL',
      'COPY',
      'MOVE',
      'LOCK',
      'PURGE',
      'LINK',
      'REPORT',
    );
    const unknown = fc
      .string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 1, maxLength: 10 })
      .map((word) => `X${word}`);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.oneof(knownWrong, unknown, fc.constant('SWAP')),
        async ([right, path], method) => {
          const wrong = method === 'SWAP' ? (right === 'GET' ? 'POST' : 'GET') : method;
          const answer = await send({ method: wrong, path, headers: auth() });
          // A method the HTTP parser does not know never reaches routing: a 400 from the parser.
          expect([400, 405], `${wrong} ${path}`).toContain(answer.status);
          expectRefusal('wrong methods', `${wrong} ${path}`, answer);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('random paths', async () => {
    const segment = fc.oneof(
      fc.webSegment(),
      fc.constantFrom(
        'api',
        'agents',
        'v1',
        'qna',
        'systems',
        'a2a',
        '..',
        '.',
        '%2e%2e',
        '%zz',
        '%E0%A4%A',
        '.well-known',
        'stream',
        'search',
        '_emulator',
        agentId,
        systemId,
      ),
    );
    const path = fc
      .array(segment, { minLength: 1, maxLength: 8 })
      .map((segments) => `/${segments.join('/')}`)
      .filter((p) => !templates.some((template) => template.test(p)) && !p.startsWith('/_emulator/'));
    await fc.assert(
      fc.asyncProperty(path, fc.constantFrom('GET', 'POST'), async (p, method) => {
        const answer = await send({ method, path: p, headers: auth() });
        expectRefusal('random paths', `${method} ${p}`, answer);
      }),
      { numRuns: 2000 },
    );
  });

  it('a body beyond the drain limit is cut off, and the emulator keeps serving', async () => {
    const answer = await send({
      method: 'POST',
      path: streamPath,
      headers: auth(),
      body: Buffer.alloc(17 * 1024 * 1024, 'x'),
    }).catch((error: NodeJS.ErrnoException) => error.code ?? error.message);
    // Either a 413 that made it out before the cut, or the cut itself: never a 5xx.
    if (typeof answer === 'string') expect(['ECONNRESET', 'EPIPE']).toContain(answer);
    else expect(answer.status).toBe(413);
    const next = await send({ method: 'GET', path: '/api/agents/v1/', headers: auth() });
    expect(next.status).toBe(200);
  });

  it('after all of it, the emulator still answers and holds no streams or unbounded records', async () => {
    const answer = await send({ method: 'GET', path: '/api/qna/v1/systems', headers: auth() });
    expect(answer.status).toBe(200);
    const after = await emu.memory();
    expect(after.openStreams).toBe(0);
    expect(after.recordedRequests).toBeLessThanOrEqual(500);
    // Bounded: what stays after collection must not grow with the number of requests.
    expect(after.heapUsed - before.heapUsed).toBeLessThan(32 * 1024 * 1024);
  });
});
