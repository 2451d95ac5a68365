import { seed } from '@dataworkz/emulator';
import { outcomeOf, postRpc, streamRequest } from '../../../agent-wire.js';
import type { HostileCase } from '../../../runner/case.js';
import { againstEmulator, KEY, timed } from '../harness.js';

/**
 * Beside item 16: a message naming one large task as its reference tens of thousands of times
 * (the SDK loads every reference it is given, and each load copies the task).
 */
export const repeatedReferences: HostileCase = {
  name: '16 one large task referenced 20,000 times',
  run: () =>
    againstEmulator({}, async (emu) => {
      const target = { url: emu.url, apiKey: KEY };
      const agentId = seed.agents.orderStatus.agentId;
      const first = await postRpc(
        target,
        agentId,
        streamRequest(`Where is order 1001? ${'p'.repeat(32_000)}`),
        60_000,
      );
      const taskId = (first.messages.at(-1)?.result as { taskId?: string } | undefined)?.taskId ?? 'none';
      const references = Array.from({ length: 20_000 }, () => taskId);
      const { value, ms } = await timed(() =>
        postRpc(
          target,
          agentId,
          streamRequest('Where is order 1002?', { referenceTaskIds: references }),
          120_000,
        ),
      );
      const outcome = outcomeOf(value);
      return { pass: outcome === 'completed', note: `${outcome}`, answerMs: ms };
    }),
};
