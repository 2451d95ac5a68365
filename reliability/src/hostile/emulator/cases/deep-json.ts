import { seed } from '@dataworkz/emulator';
import { outcomeOf, postRpc, streamRequest } from '../../../agent-wire.js';
import type { HostileCase } from '../../../runner/case.js';
import { againstEmulator, KEY, timed } from '../harness.js';

/** Item 15: a stream request whose data part nests thousands of levels. */
export const deepJson: HostileCase = {
  name: '15 JSON nested 5,000 levels',
  run: (size) =>
    againstEmulator({}, async (emu) => {
      const depths = size === 'quick' ? [5000] : [5000, 200_000];
      const seen: string[] = [];
      let pass = true;
      let slowest = 0;
      for (const depth of depths) {
        // `[` nests with one byte a level: 200,000 levels fit in the 1 MiB body cap.
        const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
        const body = streamRequest('Where is order 1001?').replace(
          '"parts":[',
          `"parts":[{"kind":"data","data":{"deep":${deep}}},`,
        );
        const { value, ms } = await timed(() =>
          postRpc({ url: emu.url, apiKey: KEY }, seed.agents.orderStatus.agentId, body, 60_000),
        );
        slowest = Math.max(slowest, ms);
        const outcome = value.status === 200 ? outcomeOf(value) : `HTTP ${value.status}`;
        seen.push(`${depth} levels (${(body.length / 1024).toFixed(0)} KiB): ${outcome}`);
        pass &&= value.status === 400;
      }
      return { pass, note: seen.join('; '), answerMs: slowest };
    }),
};
