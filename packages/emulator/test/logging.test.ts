import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { credentialForms, leaks } from '../../redaction/test/support/credential-table.js';
import { finalStatus, streamAll } from './support/a2a.js';
import { message, rpc, rpcErrorOf, rpcMessages } from './support/rpc.js';

const KEY = 'dwk-LOGGING-SECRET-0123456789';
const lines: { level: string; text: string }[] = [];
let emu: Emulator;
let quiet: Emulator;
const consoleCalls = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((method) =>
  vi.spyOn(console, method),
);

beforeAll(async () => {
  const logger = Object.fromEntries(
    (['debug', 'info', 'warn', 'error'] as const).map((level) => [
      level,
      (text: string, ...details: unknown[]) =>
        lines.push({ level, text: [text, ...details.map((d) => String(d))].join(' ') }),
    ]),
  );
  [emu, quiet] = await Promise.all([
    startEmulator({ apiKeys: [KEY], logger }),
    startEmulator({ apiKeys: [KEY] }),
  ]);
});
afterAll(() => Promise.all([emu.close(), quiet.close()]));
afterEach(() => {
  // Nothing the emulator or the SDK inside it does may reach the console.
  for (const spy of consoleCalls) expect(spy).not.toHaveBeenCalled();
});

const agentId = seed.agents.orderStatus.agentId;
const request = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 9, method, params });

describe.each([
  ['with a logger', () => emu],
  ['without one', () => quiet],
])('A2A requests the SDK would print to the console, %s', (_name, target) => {
  it('resubscribing to an unknown task is -32001, quietly', async () => {
    const res = await rpc(target(), agentId, request('tasks/resubscribe', { id: 'no-such-task' }));
    expect(rpcErrorOf(res)).toMatchObject({ code: -32001 });
  });

  it('a message without messageId, or with parts that are not an array, is -32602', async () => {
    const { messageId: _, ...withoutId } = message('Where is order 1001?');
    for (const [method, params] of [
      ['message/stream', { message: withoutId }],
      ['message/send', { message: { ...message('x'), parts: { kind: 'text' } } }],
      ['message/stream', { message: { ...message('x'), parts: 'text' } }],
    ] as const) {
      const res = await rpc(target(), agentId, request(method, params));
      expect(rpcErrorOf(res), method).toMatchObject({ code: -32602 });
    }
  });

  it('continuing an unknown or a finished task is an error, quietly', async () => {
    const unknown = await rpc(
      target(),
      agentId,
      request('message/stream', { message: message('Where is order 1001?', { taskId: 'no-such-task' }) }),
    );
    expect(rpcErrorOf(unknown)).toMatchObject({ code: -32001 });
    const done = finalStatus(await streamAll(target(), agentId, { text: 'Where is order 1001?' }));
    const again = await rpc(
      target(),
      agentId,
      request('message/stream', { message: message('and 1002?', { taskId: done.taskId }) }),
    );
    expect(rpcErrorOf(again)).toMatchObject({ code: -32600 });
    const cancel = await rpc(target(), agentId, request('tasks/cancel', { id: done.taskId }));
    expect(rpcErrorOf(cancel)).toMatchObject({ code: -32002 });
  });

  it('unknown referenceTaskIds are left out, and a task waiting for input resubscribes to itself', async () => {
    const res = await rpc(
      target(),
      agentId,
      request('message/stream', {
        message: message('Where is my order?', { referenceTaskIds: ['no-such-task'] }),
      }),
    );
    const last = rpcMessages(res).at(-1)?.result as { taskId: string; status: { state: string } };
    expect(last.status.state).toBe('input-required');
    const resubscribed = await rpc(target(), agentId, request('tasks/resubscribe', { id: last.taskId }));
    expect(rpcMessages(resubscribed).map((m) => (m.result as { kind: string }).kind)).toEqual(['task']);
  });
});

it('reports refusals to the logger at debug level, without credentials', () => {
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.every((line) => line.level === 'debug')).toBe(true);
  expect(lines.map((line) => line.text).join('\n')).toContain('tasks/resubscribe refused: Task not found');
  expect(JSON.stringify(lines)).not.toContain(KEY);
});

it('scrubs the emulator’s key from a line that quotes what a request sent (--log debug)', async () => {
  // A method name is quoted by the refusal: a caller can put the key there, in any of its forms.
  for (const { text } of credentialForms(KEY)) {
    await rpc(emu, agentId, request(`tasks/${text}`, { id: 'x' }));
  }
  const logged = lines.map((line) => line.text).join('\n');
  expect(logged).toContain('refused');
  expect(leaks(logged, KEY)).toEqual([]);
});
