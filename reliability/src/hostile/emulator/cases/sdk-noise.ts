import { seed } from '@dataworkz/emulator';
import { outcomeOf, postRpc, streamRequest } from '../../../agent-wire.js';
import type { HostileCase } from '../../../runner/case.js';
import { againstEmulator, KEY } from '../harness.js';

const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
/** A user message with fields replaced (`undefined` drops one). */
function message(extra: Record<string, unknown>): Record<string, unknown> {
  const { params } = JSON.parse(streamRequest('Where is my order?')) as { params: { message: object } };
  return { ...params.message, ...extra };
}

/**
 * Item 19: the A2A requests the SDK printed traces for (unknown task, missing messageId, parts not an
 * array, a finished task continued, unknown references), counted on the emulator's own console.
 */
export const sdkNoise: HostileCase = {
  name: '19 console output for refused A2A requests',
  run: (size) =>
    againstEmulator({}, async (emu) => {
      const target = { url: emu.url, apiKey: KEY };
      const agentId = seed.agents.orderStatus.agentId;
      const rounds = size === 'quick' ? 5 : 50;
      const done = await postRpc(target, agentId, streamRequest('Where is order 1001?'), 30_000);
      const finished = (done.messages.at(-1)?.result as { taskId?: string } | undefined)?.taskId ?? 'none';
      const requests = [
        rpc('tasks/resubscribe', { id: 'no-such-task' }),
        rpc('message/stream', { message: message({ messageId: undefined }) }),
        rpc('message/send', { message: message({ parts: { kind: 'text' } }) }),
        rpc('message/stream', { message: message({ taskId: finished }) }),
        rpc('message/stream', { message: message({ referenceTaskIds: ['no-such-task'] }) }),
        rpc('tasks/cancel', { id: 'no-such-task' }),
      ];
      const outcomes = new Set<string>();
      for (let round = 0; round < rounds; round++) {
        for (const body of requests) outcomes.add(outcomeOf(await postRpc(target, agentId, body, 30_000)));
      }
      // Give the console a moment to reach the pipe before counting.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const lines = emu
        .output()
        .split('\n')
        .filter((line) => line.trim() !== '');
      const traces = lines.filter((line) => /^\s+at /.test(line)).length;
      return {
        pass: lines.length === 0,
        note: `${rounds * requests.length} requests (${[...outcomes].join(', ')}): ${lines.length} console lines, ${traces} stack frames`,
      };
    }),
};
