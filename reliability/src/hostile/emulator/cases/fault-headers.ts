import type { FaultRule } from '@dataworkz/emulator';
import { EmulatorProcess } from '../../../emulator-process.js';
import type { HostileCase } from '../../../runner/case.js';
import { againstEmulator, KEY, request, timed } from '../harness.js';

const unsendable = [
  { headers: { 'x-bad': '€' } },
  { headers: { 'x-bad': 'a\u0001b' } },
  { headers: { 'x-bad': 'a\u007fb' } },
  { contentType: 'text/plain; charset=€' },
];

/** Starts an emulator with one rule in force, and says what became of it. */
async function startWith(rule: FaultRule): Promise<string> {
  let started: EmulatorProcess;
  try {
    started = await EmulatorProcess.start({ apiKeys: [KEY], faults: [rule] }, { captureOutput: true });
  } catch {
    return 'refused at start';
  }
  const answer = await request(started, '/api/agents/v1/');
  // The exit of a process that crashed is reported a moment after its socket closes.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const state = started.running ? 'alive' : 'died';
  await started.close(2000);
  return `started; the next request: ${answer.status || answer.text}, the process ${state}`;
}

/** Item 10: header values HTTP cannot carry, added as fault rules, then a request each rule would match. */
export const faultHeaders: HostileCase = {
  name: '10 fault rules with headers HTTP cannot carry',
  run: () =>
    againstEmulator({}, async (emu) => {
      const statuses: number[] = [];
      let answerMs = 0;
      for (const rule of unsendable) {
        const added = await request(emu, '/_emulator/faults', {
          method: 'POST',
          body: JSON.stringify({ route: 'listAgents', ...rule }),
        });
        const next = await timed(() => request(emu, '/api/agents/v1/'));
        answerMs = Math.max(answerMs, next.ms);
        statuses.push(added.status, next.value.status);
        if (!emu.running) break;
      }
      // The same rule given at start must stop the start, not a later request.
      const atStart = await startWith({ headers: { 'x-trace': 'café ☕' } });
      const refusedAll = statuses.every((status, i) => status === (i % 2 === 0 ? 400 : 200));
      return {
        pass: refusedAll && atStart === 'refused at start',
        note: `add/next: ${statuses.join(' ')}; option: ${atStart}`,
        answerMs,
      };
    }),
};

/** Item 10: a rule node:http refuses only when writing (a trailer without chunked encoding), many times. */
export const unwritableReply: HostileCase = {
  name: '10 replies node:http refuses to write',
  run: (size) =>
    againstEmulator({}, async (emu) => {
      const count = size === 'quick' ? 20 : 200;
      await request(emu, '/_emulator/faults', {
        method: 'POST',
        body: JSON.stringify({
          route: 'listAgents',
          status: 503,
          times: count,
          headers: { trailer: 'x-sum' },
        }),
      });
      const statuses = new Map<number, number>();
      let slowest = 0;
      for (let i = 0; i < count && emu.running; i++) {
        const { value, ms } = await timed(() => request(emu, '/api/agents/v1/'));
        statuses.set(value.status, (statuses.get(value.status) ?? 0) + 1);
        slowest = Math.max(slowest, ms);
      }
      const after = await request(emu, '/api/agents/v1/');
      const seen = [...statuses].map(([status, n]) => `${status} x${n}`).join(', ');
      return {
        pass: statuses.get(500) === count && after.status === 200,
        note: `${seen}; then ${after.status || after.text}`,
        answerMs: slowest,
      };
    }),
};
