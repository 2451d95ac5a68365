import { streamAgent } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { seed } from '@dataworkz/emulator';
import { expect, it } from 'vitest';
import { countingFetch } from '../../src/wire-count.js';
import { againstEmulator, full, KEY } from './against-emulator.js';

// Many calls at once through the clients: none fails, no event the emulator sent is lost on the way
// to the caller, and the emulator holds no stream and no descriptor afterwards. The time they take is
// the benchmark's (sections 2 and 3), the memory a long run keeps its section 4.
const streams = full ? 500 : 25;
const calls = full ? 5000 : 250;
const options = {
  // A short pause per task update keeps every stream open at the same time, as a real agent would.
  agentStepDelayMs: 5,
  limits: { maxConcurrentStreams: streams * 2, requestTimeoutMs: 120_000 },
};

it(`${streams} agent streams at once lose no event`, async () => {
  await againstEmulator(options, async (emu) => {
    const runs = await Promise.all(
      Array.from({ length: streams }, async () => {
        // A client of its own, so that its wire events are counted apart.
        const wire = countingFetch();
        const dw = new Dataworkz({ baseUrl: emu.url, apiKey: KEY, fetch: wire.fetch, maxRetries: 0 });
        const run = streamAgent(dw, seed.agents.orderStatus.agentId, {
          text: 'Where is order 1001?',
          idleTimeoutMs: 60_000,
        });
        // One A2A event can become several caller events; each carries the event it came from.
        const received = new Set<unknown>();
        for await (const event of run) received.add(event.raw);
        return { state: (await run.finalAnswer()).state, sent: wire.events(), received: received.size };
      }),
    );
    for (const run of runs) expect(run).toEqual({ state: 'completed', sent: run.sent, received: run.sent });
    expect((await emu.memory()).openStreams).toBe(0);
  });
});

it(`${calls} REST calls at once through one client all succeed`, async () => {
  await againstEmulator(options, async (emu) => {
    const dw = new Dataworkz({ baseUrl: emu.url, apiKey: KEY, maxRetries: 0 });
    const systemId = seed.systems.productDocs.systemId;
    const call = (i: number): Promise<unknown> => {
      if (i % 4 === 0) return dw.qna.list();
      if (i % 4 === 1) return dw.qna.search(systemId, { query: 'warranty' });
      return i % 4 === 2 ? dw.agents.list() : dw.qna.get(systemId);
    };
    const settled = await Promise.allSettled(Array.from({ length: calls }, (_, i) => call(i)));
    expect(settled.filter((s) => s.status === 'rejected')).toEqual([]);
  });
});
