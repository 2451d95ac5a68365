import { seed } from '@dataworkz/emulator';
import { outcomeOf, postRpc, streamRequest } from '@dataworkz/measure';
import { describe, expect, it } from 'vitest';
import { againstEmulator, full, inBatches, KEY, request } from './against-emulator.js';

// What the emulator keeps after a forced collection, measured in its own process; each case also ends
// with its descriptors back at their baseline (see againstEmulator).
const MiB = 1024 * 1024;
const agentId = seed.agents.orderStatus.agentId;

describe('the emulator keeps bounded memory', () => {
  it.each([
    ['unauthenticated', 'SSWS wrong-key'],
    ['authenticated', `SSWS ${KEY}`],
  ])(
    'under 1 MiB POSTs to an unknown path, %s (the recorder keeps no body)',
    async (_name, authorization) => {
      await againstEmulator({}, async (emu) => {
        const count = full ? 500 : 50;
        // 0xFF bytes decode to U+FFFD: the worst case for text kept in memory.
        const body = Buffer.alloc(MiB, 0xff);
        const before = await emu.memory();
        const statuses = new Set<number>();
        await inBatches(count, 8, async () => {
          const answer = await request(emu, '/api/no/such/path', {
            method: 'POST',
            headers: { authorization, 'content-type': 'application/octet-stream' },
            body,
          });
          statuses.add(answer.status);
        });
        const after = await emu.memory();
        expect([...statuses]).toEqual([authorization.endsWith(KEY) ? 404 : 401]);
        expect(after.heapUsed - before.heapUsed).toBeLessThan(32 * MiB);
      });
    },
  );

  it('over many long turns in one context, refused past the text cap and kept just under it', async () => {
    await againstEmulator({}, async (emu) => {
      const turns = full ? 300 : 30;
      const contextId = crypto.randomUUID();
      const filler = (length: number) => 'lorem ipsum dolor '.repeat(Math.ceil(length / 18)).slice(0, length);
      const phase = async (length: number) => {
        const outcomes = new Set<string>();
        for (let i = 0; i < turns; i++) {
          const text = `Where is my order ${filler(length)}`;
          outcomes.add(outcomeOf(await postRpc(emu, agentId, streamRequest(text, { contextId }), 120_000)));
        }
        return [...outcomes];
      };
      const start = await emu.memory();
      expect(await phase(480_000)).toEqual(['JSON-RPC -32602']);
      expect(await phase(32_000)).toEqual(['input-required']);
      expect((await emu.memory()).heapUsed - start.heapUsed).toBeLessThan(64 * MiB);
    });
  });

  it('over many tasks, each in a context of its own (the SDK task store kept every one)', async () => {
    await againstEmulator({}, async (emu) => {
      const tasks = full ? 10_000 : 300;
      // A message of 16 KB, so what is kept per task shows.
      const text = `Where is order 1001? ${'p'.repeat(16_000)}`;
      const before = await emu.memory();
      const outcomes = new Set<string>();
      await inBatches(tasks, 8, async () => {
        outcomes.add(outcomeOf(await postRpc(emu, agentId, streamRequest(text), 60_000)));
      });
      expect([...outcomes]).toEqual(['completed']);
      expect((await emu.memory()).heapUsed - before.heapUsed).toBeLessThan(64 * MiB);
    });
  });
});
