import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerText, finalStatus, streamAll } from './support/a2a.js';
import { call, obj, q } from './support/http.js';
import { message, rpc, rpcErrorOf, rpcMessages } from './support/rpc.js';

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['limits-key'] });
});
afterAll(() => emu.close());

const orderStatus = seed.agents.orderStatus.agentId;

/** A data part value nested `depth` levels of objects deep. */
function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('JSON nesting', () => {
  it('refuses a stream request nesting 5,000 levels with 400, before anything walks it', async () => {
    // Written as text: JSON.stringify itself cannot walk 5,000 levels on every stack.
    const deep = `${'{"a":'.repeat(5000)}"bottom"${'}'.repeat(5000)}`;
    const envelope = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/stream',
      params: { message: { ...message('Where is order 1001?'), parts: [{ kind: 'data', data: 'DEEP' }] } },
    });
    const body = envelope.replace('"DEEP"', deep);
    expect(body.length).toBeLessThan(40_000);
    const res = await rpc(emu, orderStatus, body);
    expect(res.status).toBe(400);
    expect(obj(res.json)).toMatchObject({
      code: 'BAD_REQUEST_BODY',
      message: 'The request body nests arrays and objects deeper than 64 levels',
    });
    expect(res.text.length).toBeLessThan(1000);
  });

  it('accepts nesting up to the limit', async () => {
    // The envelope and the message take four levels: params, message, parts, the part.
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/stream',
      params: { message: { ...message('Where is order 1001?'), metadata: nested(59) } },
    };
    const res = await rpc(emu, orderStatus, body);
    expect(res.status).toBe(200);
    expect(rpcMessages(res).at(-1)).toMatchObject({ result: { status: { state: 'completed' } } });
  });

  it('refuses deep bodies on the deprecated call and the control endpoint too', async () => {
    const deep = JSON.stringify({ contextValues: nested(100) });
    const response = await call(
      emu,
      `/api/agents/v1/${orderStatus}/response?${q({ userText: 'Where is order 1001?', llmProviderId: seed.llms.orderStatusAgent })}`,
      { method: 'POST', body: deep },
    );
    expect(response.status).toBe(400);
    expect(obj(response.json).code).toBe('BAD_REQUEST_BODY');
    const faults = await call(emu, '/_emulator/faults', { method: 'POST', body: '['.repeat(100) });
    expect(faults.status).toBe(400);
  });
});

describe('user text', () => {
  it('refuses a 156 KiB message text with -32602, naming the limit', async () => {
    const text = `Where is my order ${'a'.repeat(160_000)}`;
    const res = await rpc(emu, orderStatus, {
      jsonrpc: '2.0',
      id: 7,
      method: 'message/stream',
      params: { message: message(text) },
    });
    expect(res.status).toBe(200);
    expect(rpcMessages(res)).toHaveLength(1);
    expect(rpcErrorOf(res)).toEqual({
      code: -32602,
      message: 'The message text is longer than 32768 characters',
      data: { maxTextLength: 32768 },
    });
  });

  it('refuses a turn of history and a query parameter over the limit with 400 TEXT_TOO_LONG', async () => {
    const small = await startEmulator({ apiKeys: ['k'], limits: { maxTextLength: 100 } });
    try {
      const path = `/api/agents/v1/${orderStatus}/response?${q({ userText: 'Where is order 1001?', llmProviderId: seed.llms.orderStatusAgent })}`;
      const history = await call(small, path, {
        method: 'POST',
        body: JSON.stringify({ conversationHistory: [{ by: 'USER', text: 'x'.repeat(101) }] }),
      });
      expect(history.status).toBe(400);
      expect(obj(history.json)).toMatchObject({
        code: 'TEXT_TOO_LONG',
        message: 'conversationHistory[0].text is longer than 100 characters',
      });
      const search = await call(
        small,
        `/api/qna/v1/systems/${seed.systems.productDocs.systemId}/search?${q({ query: 'y'.repeat(101) })}`,
      );
      expect(search.status).toBe(400);
      expect(obj(search.json)).toMatchObject({
        code: 'TEXT_TOO_LONG',
        message: "Request parameter 'query' is longer than 100 characters",
      });
    } finally {
      await small.close();
    }
  });
});

describe('conversation state', () => {
  it('keeps only the most recent turns of a context', async () => {
    const small = await startEmulator({ apiKeys: ['k'], limits: { maxTurnsPerContext: 2 } });
    try {
      const first = finalStatus(
        await streamAll(small, orderStatus, { text: 'List the orders of ada@example.com' }),
      );
      expect(answerText(first)).toMatch(/^Ada Lovelace has \d orders/);
      const contextId = first.contextId;
      // The email is in the turn before: still kept.
      const second = finalStatus(
        await streamAll(small, orderStatus, { text: 'List my purchases', contextId }),
      );
      expect(answerText(second)).toMatch(/^Ada Lovelace has \d orders/);
      // Two turns later it is gone: the agent asks who the caller is.
      const third = finalStatus(
        await streamAll(small, orderStatus, { text: 'List my purchases', contextId }),
      );
      expect(third.status.state).toBe('input-required');
    } finally {
      await small.close();
    }
  });

  it('forgets the least recently used conversation past the cap', async () => {
    const small = await startEmulator({ apiKeys: ['k'], limits: { maxConversations: 1 } });
    try {
      const a = finalStatus(
        await streamAll(small, orderStatus, { text: 'List the orders of ada@example.com' }),
      );
      await streamAll(small, orderStatus, { text: 'Where is order 1001?' });
      const again = finalStatus(
        await streamAll(small, orderStatus, { text: 'List my purchases', contextId: a.contextId }),
      );
      expect(again.status.state).toBe('input-required');
    } finally {
      await small.close();
    }
  });

  it('keeps at most maxTasks tasks, forgetting the least recently updated', async () => {
    const small = await startEmulator({ apiKeys: ['k'], limits: { maxTasks: 2 } });
    try {
      const taskIds: string[] = [];
      for (const order of ['1001', '1002', '1003']) {
        taskIds.push(
          finalStatus(await streamAll(small, orderStatus, { text: `Where is order ${order}?` })).taskId,
        );
      }
      const get = (id: string | undefined) =>
        rpc(small, orderStatus, { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id } });
      expect(rpcErrorOf(await get(taskIds[0]))).toMatchObject({ code: -32001 });
      expect(obj((await get(taskIds[2])).json).result).toMatchObject({ id: taskIds[2] });
    } finally {
      await small.close();
    }
  });
});

describe('task references', () => {
  it('passes each known task once and leaves unknown ones out', async () => {
    const known = finalStatus(await streamAll(emu, orderStatus, { text: 'Where is order 1001?' })).taskId;
    const res = await rpc(emu, orderStatus, {
      jsonrpc: '2.0',
      id: 3,
      method: 'message/stream',
      params: {
        message: message('Where is order 1002?', { referenceTaskIds: [known, 'no-such-task', known, known] }),
      },
    });
    const taskId = (rpcMessages(res).at(-1)?.result as { taskId?: string } | undefined)?.taskId;
    const task = await rpc(emu, orderStatus, {
      jsonrpc: '2.0',
      id: 4,
      method: 'tasks/get',
      params: { id: taskId, historyLength: 10 },
    });
    const history = (obj(task.json).result as { history: { role: string; referenceTaskIds?: string[] }[] })
      .history;
    expect(history.find((m) => m.role === 'user')?.referenceTaskIds).toEqual([known]);
  });
});
