import { seed } from '@dataworkz/emulator';
import { postRpc, streamRequest } from '../../../agent-wire.js';
import type { HostileCase } from '../../../runner/case.js';
import { againstEmulator, KEY, request } from '../harness.js';

const inherited = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

/** Item 14: names every object inherits, given as LLM ids to answer, search and the stream. */
export const prototypeIds: HostileCase = {
  name: '14 inherited names as LLM ids',
  run: () =>
    againstEmulator({}, async (emu) => {
      const seen: string[] = [];
      for (const name of inherited) {
        const answer = await request(
          emu,
          `/api/qna/v1/systems/${seed.systems.productDocs.systemId}/answer?questionText=reset%20password&llmProviderId=${name}`,
        );
        const stream = await postRpc(
          { url: emu.url, apiKey: KEY },
          seed.agents.orderStatus.agentId,
          streamRequest('Where is order 1001?'),
          30_000,
          `?llmId=${name}`,
        );
        const code = (value: unknown) => (value as { code?: string } | undefined)?.code ?? '';
        const streamCode = code(stream.messages[0]);
        seen.push(`${name}: ${answer.status} ${code(answer.json)} / ${stream.status} ${streamCode}`);
        if (answer.status !== 400 || stream.status !== 400) {
          const leak = /native code/.test(stream.text) ? ' (the stream named an inherited function)' : '';
          return { pass: false, note: `${seen.join('; ')}${leak}` };
        }
      }
      return { pass: true, note: `all ${inherited.length} refused: 400 LLM_NOT_CONFIGURED` };
    }),
};
