import { seed } from '@dataworkz/emulator';
import { outcomeOf, postRpc, streamRequest } from '../../../agent-wire.js';
import type { HostileCase } from '../../../runner/case.js';
import { againstEmulator, growth, inBatches, KEY } from '../harness.js';

const agentId = seed.agents.orderStatus.agentId;

/** Text of about `length` characters that no pattern finds anything in (words, no digits, no @). */
const filler = (length: number) => 'lorem ipsum dolor '.repeat(Math.ceil(length / 18)).slice(0, length);

/**
 * Item 16: many long turns in one context. The attack sent 480 KB turns, which the text cap now
 * refuses; turns just under the cap show what a context keeps.
 */
export const manyTurns: HostileCase = {
  name: '16 one context, many long turns',
  run: (size) =>
    againstEmulator({}, async (emu) => {
      const target = { url: emu.url, apiKey: KEY };
      const turns = size === 'quick' ? 30 : 300;
      const contextId = crypto.randomUUID();
      await postRpc(target, agentId, streamRequest('Where is order 1001?'), 60_000);
      const phase = async (count: number, length: number) => {
        const outcomes = new Map<string, number>();
        for (let i = 0; i < count; i++) {
          const text = `Where is my order ${filler(length)}`;
          const answer = await postRpc(target, agentId, streamRequest(text, { contextId }), 120_000);
          const outcome = outcomeOf(answer);
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
        return [...outcomes].map(([o, n]) => `${o} x${n}`).join(', ');
      };
      const start = await emu.memory();
      const huge = await phase(turns, 480_000);
      const afterHuge = await emu.memory();
      const atCap = await phase(turns, 32_000);
      const afterCap = await emu.memory();
      const retainedMiB = (afterCap.heapUsed - start.heapUsed) / 1024 / 1024;
      return {
        pass: retainedMiB < 64,
        note: `${turns} turns of 480 KB: ${huge}; ${turns} of 32 KB: ${atCap}`,
        extra: `480 KB turns ${growth(start, afterHuge)}; then 32 KB turns ${growth(afterHuge, afterCap)}`,
      };
    }),
};

/** Item 16: many tasks, each in a context of its own: the SDK's task store kept every one. */
export const manyTasks: HostileCase = {
  name: '16 many tasks and contexts',
  run: (size) =>
    againstEmulator({}, async (emu) => {
      const target = { url: emu.url, apiKey: KEY };
      const tasks = size === 'quick' ? 300 : 10_000;
      // A message of 16 KB, so what is kept per task shows.
      const padding = 'p'.repeat(16_000);
      await postRpc(target, agentId, streamRequest('Where is order 1001?'), 60_000);
      const before = await emu.memory();
      let completed = 0;
      await inBatches(tasks, 8, async () => {
        const answer = await postRpc(
          target,
          agentId,
          streamRequest(`Where is order 1001? ${padding}`),
          60_000,
        );
        if (outcomeOf(answer) === 'completed') completed += 1;
      });
      const after = await emu.memory();
      const retainedMiB = (after.heapUsed - before.heapUsed) / 1024 / 1024;
      return {
        // Kept: 1,000 tasks and conversations of about 16 KB each, and the request record.
        pass: completed === tasks && retainedMiB < 64,
        note: `${completed} of ${tasks} tasks completed`,
        extra: growth(before, after),
      };
    }),
};
