import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createEmulator } from '@dataworkz/emulator';
import { until } from '@dataworkz/measure';
import { expect, it } from 'vitest';

// A collection forced from inside the test, as a loaded process would run one on its own.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

it('an abort reaches an in-process call held by a fault’s latency, even after a garbage collection', async () => {
  const emu = createEmulator({ apiKeys: ['k'] });
  try {
    emu.faults.add({ route: 'listQnaSystems', latencyMs: 60_000 });
    const controller = new AbortController();
    const call = emu.fetch('https://dw.example/api/qna/v1/systems', {
      headers: { authorization: 'SSWS k' },
      signal: controller.signal,
    });
    await until(() => emu.requests.length > 0, 'the request reached the emulator');
    expect(emu.requests).toHaveLength(1);
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort(new Error('stop'));
    // Without the abort the call would wait out the minute of latency (and the test its time-out).
    await expect(call).rejects.toThrow('stop');
  } finally {
    await emu.close();
  }
}, 10_000);
