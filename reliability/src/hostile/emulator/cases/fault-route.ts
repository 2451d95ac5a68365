import type { HostileCase } from '../../../runner/case.js';
import { againstEmulator, request, timed } from '../harness.js';

/** Item A: misspelled routes, which were accepted and never fired. */
export const misspelledRoute: HostileCase = {
  name: 'A misspelled fault routes',
  run: () =>
    againstEmulator({}, async (emu) => {
      const seen: string[] = [];
      let answerMs = 0;
      for (const route of ['noSuchRoute', 'listSystems', 'ListAgents']) {
        const { value, ms } = await timed(() =>
          request(emu, '/_emulator/faults', { method: 'POST', body: JSON.stringify({ route, status: 503 }) }),
        );
        answerMs = Math.max(answerMs, ms);
        const listsIds = value.text.includes('listQnaSystems');
        seen.push(`${route}: ${value.status}${listsIds ? ' listing the operationIds' : ''}`);
      }
      return { pass: seen.every((s) => s.includes(': 400 listing')), note: seen.join('; '), answerMs };
    }),
};
