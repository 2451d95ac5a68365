import { seed } from '@dataworkz/emulator';
import { outcomeOf, postRpc, streamRequest } from '../../../agent-wire.js';
import type { HostileCase } from '../../../runner/case.js';
import { milliseconds } from '../../../runner/run-suites.js';
import { againstEmulator, KEY, request, timed } from '../harness.js';

const agentId = seed.agents.orderStatus.agentId;
const attackText = `Where is my order ${'a'.repeat(160_000)}`;

/** Item 11: the 156 KiB text that took 13-20 s, at the default limits, with a short request beside it. */
export const longTextAtCap: HostileCase = {
  name: '11 156 KiB agent text, default limits',
  run: () =>
    againstEmulator({}, async (emu) => {
      const target = { url: emu.url, apiKey: KEY };
      const long = timed(() => postRpc(target, agentId, streamRequest(attackText), 120_000));
      const short = await timed(() =>
        postRpc(target, agentId, streamRequest('Where is order 1001?'), 120_000),
      );
      const answer = await long;
      const outcome = outcomeOf(answer.value);
      return {
        pass: outcome === 'JSON-RPC -32602' && outcomeOf(short.value) === 'completed',
        note: `${outcome}; a short request beside it: ${outcomeOf(short.value)} in ${milliseconds(short.ms)}`,
        answerMs: answer.ms,
      };
    }),
};

/** Item 11: the same text with the cap raised, so only the patterns' own cost is measured. */
export const longTextLinear: HostileCase = {
  name: '11 156 KiB agent text, cap raised to 1 MiB',
  run: () =>
    againstEmulator({ limits: { maxTextLength: 1024 * 1024 } }, async (emu) => {
      const target = { url: emu.url, apiKey: KEY };
      const shapes = [
        [seed.agents.orderStatus.agentId, attackText],
        [seed.agents.productAdvisor.agentId, `How do I reset ${'.'.repeat(160_000)}a`],
        [seed.agents.productAdvisor.agentId, `How do I reset ${'q'.repeat(160_000)}`],
      ] as const;
      const outcomes: string[] = [];
      let slowest = 0;
      for (const [agent, text] of shapes) {
        const { value, ms } = await timed(() => postRpc(target, agent, streamRequest(text), 120_000));
        outcomes.push(`${outcomeOf(value)} ${milliseconds(ms)}`);
        slowest = Math.max(slowest, ms);
      }
      return {
        pass: outcomes.every(
          (o) => !o.startsWith('failed') && !o.startsWith('JSON-RPC') && !o.startsWith('HTTP'),
        ),
        note: `email, dots, one long word: ${outcomes.join('; ')}`,
        answerMs: slowest,
      };
    }),
};

/** Item 11 (found beside it): one long search term made the fuzzy matcher allocate its length squared. */
export const longSearchTerm: HostileCase = {
  name: '11 15,000-character search term',
  run: () =>
    againstEmulator({}, async (emu) => {
      const path = `/api/qna/v1/systems/${seed.systems.productDocs.systemId}/search?query=${'x'.repeat(15_000)}`;
      const { value, ms } = await timed(() => request(emu, path));
      return { pass: value.status === 200, note: `HTTP ${value.status || value.text}`, answerMs: ms };
    }),
};
