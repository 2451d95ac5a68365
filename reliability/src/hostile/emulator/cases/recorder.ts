import type { HostileCase } from '../../../runner/case.js';
import { againstEmulator, growth, inBatches, KEY, request } from '../harness.js';

const MiB = 1024 * 1024;

/** Item 13: 1 MiB POSTs to an unknown path, without or with valid credentials, and what stays after a collection. */
function recorderCase(name: string, authorization: string): HostileCase {
  return {
    name,
    run: (size) =>
      againstEmulator({}, async (emu) => {
        const count = size === 'quick' ? 50 : 500;
        // 0xFF bytes decode to U+FFFD: the worst case for text kept in memory.
        const body = Buffer.alloc(MiB, 0xff);
        await request(emu, '/api/agents/v1/');
        const before = await emu.memory();
        const statuses = new Map<number, number>();
        await inBatches(count, 8, async () => {
          const answer = await request(emu, '/api/no/such/path', {
            method: 'POST',
            headers: { authorization, 'content-type': 'application/octet-stream' },
            body,
          });
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        });
        const after = await emu.memory();
        const retainedMiB = (after.heapUsed - before.heapUsed) / MiB;
        return {
          pass: retainedMiB < 32,
          note: `${count} x 1 MiB: ${[...statuses].map(([s, n]) => `${s} x${n}`).join(', ')}; ${after.recordedRequests} recorded`,
          extra: growth(before, after),
        };
      }),
  };
}

export const recorderUnauthenticated = recorderCase(
  '13 recorder: unauthenticated 1 MiB POSTs',
  'SSWS wrong-key',
);
export const recorderAuthenticated = recorderCase('13 recorder: authenticated 1 MiB POSTs', `SSWS ${KEY}`);
