import type { Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transportFor, userMessage } from './support/a2a.js';
import { call, q } from './support/http.js';
import { message, rpc } from './support/rpc.js';

// The A2A v0.3 JSON-RPC binding: what is wrong with the body is a JSON-RPC error with HTTP 200.
const orderStatus = seed.agents.orderStatus.agentId;
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['conformance-key'] });
});
afterAll(() => emu.close());

async function rpcError(body: unknown) {
  const res = await rpc(emu, orderStatus, body);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  return res.json as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
}

const send = (params: unknown, id: unknown = 'req-7') => ({
  jsonrpc: '2.0',
  id,
  method: 'message/send',
  params,
});

describe('JSON-RPC errors of the A2A binding', () => {
  it.each([
    ['text that is not JSON', '{"jsonrpc":'],
    ['an empty body', ''],
  ])('answers %s with -32700 and a null id', async (_name, body) => {
    expect(await rpcError(body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it.each([
    ['a JSON string', '"hello"'],
    ['null', 'null'],
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'message/send', params: {} }]],
    ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'message/send', params: {} }],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'message/send', params: {} }],
  ])('answers %s with -32600 and a null id', async (_name, body) => {
    const answer = await rpcError(typeof body === 'string' ? body : JSON.stringify(body));
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it.each([
    [
      'jsonrpc not "2.0", before its empty params',
      { jsonrpc: 'aaa', id: 'r1', method: 'message/send', params: {} },
    ],
    ['no jsonrpc', { id: 'r1', method: 'message/send', params: {} }],
    ['no method', { jsonrpc: '2.0', id: 'r1', params: {} }],
    ['an empty method', { jsonrpc: '2.0', id: 'r1', method: '', params: {} }],
  ])('answers %s with -32600, echoing the id', async (_name, body) => {
    expect(await rpcError(body)).toMatchObject({ id: 'r1', error: { code: -32600 } });
  });

  it('answers a request without an id, and a bad envelope, with a null id', async () => {
    const answer = await rpcError({ jsonrpc: 'aaa', method: 'message/send', params: {} });
    expect(answer).toMatchObject({ id: null, error: { code: -32600 } });
  });

  const { parts: _parts, ...withoutParts } = message('Where is order 1001?');
  const { role: _role, ...withoutRole } = message('Where is order 1001?');
  const { messageId: _messageId, ...withoutId } = message('Where is order 1001?');
  it.each([
    ['params that are not an object', 5],
    ['no message', {}],
    ['a message without parts', { message: withoutParts }],
    ['a message with no parts', { message: message('x', { parts: [] }) }],
    ['a message without a role', { message: withoutRole }],
    ['a message with the role system', { message: message('x', { role: 'system' }) }],
    ['a message without a messageId', { message: withoutId }],
    ['a part without a kind', { message: message('x', { parts: [{ text: 'x' }] }) }],
    ['a part of an unknown kind', { message: message('x', { parts: [{ kind: 'video', text: 'x' }] }) }],
  ])('answers message/send with %s with -32602, echoing the id', async (_name, params) => {
    expect(await rpcError(send(params))).toMatchObject({ id: 'req-7', error: { code: -32602 } });
  });

  it('answers message/stream with bad params with one -32602 body, not a stream', async () => {
    const body = { jsonrpc: '2.0', id: 42, method: 'message/stream', params: { message: withoutRole } };
    expect(await rpcError(body)).toMatchObject({ id: 42, error: { code: -32602 } });
  });

  it('answers an unknown method with -32601, echoing the id', async () => {
    const body = { jsonrpc: '2.0', id: 9, method: 'message/explode', params: {} };
    expect(await rpcError(body)).toMatchObject({ id: 9, error: { code: -32601 } });
  });

  it('keeps the REST errors that are not about the body: credentials, agent, LLM', async () => {
    const valid = JSON.stringify(send({ message: message('Where is order 1001?') }));
    const path = (agentId: string, query = '') => `/api/agents/v1/a2a/${agentId}/stream${query}`;
    const unauthorized = await call(emu, path(orderStatus), {
      method: 'POST',
      body: valid,
      headers: { authorization: 'SSWS wrong' },
    });
    expect(unauthorized.status).toBe(401);
    const unknownAgent = await call(emu, path('no-such-agent'), { method: 'POST', body: valid });
    expect(unknownAgent.status).toBe(404);
    const unknownLlm = await call(emu, path(orderStatus, `?${q({ llmId: 'no-such-llm' })}`), {
      method: 'POST',
      body: valid,
    });
    expect(unknownLlm.status).toBe(400);
  });
});

describe('tasks/resubscribe', () => {
  it('follows a task still running after its stream was dropped, to the final event', async () => {
    // A pause before each update keeps the task running while the client comes back.
    const slow = await startEmulator({ apiKeys: ['conformance-key'], agentStepDelayMs: 50 });
    try {
      const transport = transportFor(slow, orderStatus);
      const dropped = new AbortController();
      const first = transport.sendMessageStream(
        { message: userMessage({ text: 'Where is order 1001?' }, slow.extensionUri) },
        { signal: dropped.signal },
      );
      const opened = await first.next();
      const task = opened.value as Task;
      expect(task).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
      dropped.abort();
      await expect(first.next()).rejects.toThrow();

      const events = [];
      for await (const event of transport.resubscribeTask({ id: task.id })) events.push(event);
      expect(events[0]).toMatchObject({ kind: 'task', id: task.id });
      expect((events[0] as Task).status.state).not.toBe('completed');
      const last = events.at(-1) as TaskStatusUpdateEvent;
      expect(last).toMatchObject({ kind: 'status-update', taskId: task.id, final: true });
      expect(last.status.state).toBe('completed');
      expect(events.slice(1, -1).every((e) => e.kind === 'status-update' && !e.final)).toBe(true);
      // The store followed the run while no client was reading it.
      const stored = await transport.getTask({ id: task.id });
      expect(stored.status.state).toBe('completed');
      expect(slow.openStreams).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it('answers a finished task with the task, then ends', async () => {
    const transport = transportFor(emu, orderStatus);
    const events = [];
    for await (const event of transport.sendMessageStream({
      message: userMessage({ text: 'Where is order 1001?' }, emu.extensionUri),
    }))
      events.push(event);
    const taskId = (events[0] as Task).id;
    const again = [];
    for await (const event of transport.resubscribeTask({ id: taskId })) again.push(event);
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ kind: 'task', id: taskId, status: { state: 'completed' } });
  });
});
