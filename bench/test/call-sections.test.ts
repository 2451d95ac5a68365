import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Measurement } from '../src/measurement.js';
import { measureAllocations } from '../src/sections/allocations.js';
import { measureCalls } from '../src/sections/calls.js';
import { measureClientCpu } from '../src/sections/client-cpu.js';
import { ReplayingFetch, recordResponse } from '../src/sections/recorded-fetch.js';
import { startBenchEmulator } from '../src/servers/emulator.js';

type Emulator = Awaited<ReturnType<typeof startBenchEmulator>>;

function rowsOf(measurements: readonly Measurement[], metric: RegExp): Map<string, readonly number[]> {
  return new Map(measurements.filter((m) => metric.test(m.metric)).map((m) => [m.subject, m.samples]));
}

describe('the call sections against the emulator', () => {
  let emulator: Emulator;
  const realFetch = globalThis.fetch;
  beforeAll(async () => {
    emulator = await startBenchEmulator('test-key');
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    await emulator.close();
  });
  const target = () => ({ url: emulator.info.url, apiKey: emulator.info.apiKey });

  const subjects = ['raw fetch', 'openapi-fetch alone', 'openapi-fetch with a time-out', '@dataworkz/client'];

  it('time raw fetch, openapi-fetch (bare and with a time-out) and the client, round by round', async () => {
    const { measurements } = await measureCalls({ target: target(), blockCalls: 5, inFlight: 1, rounds: 3 });
    const figures = rowsOf(measurements, /: time per call$/);
    expect([...figures.keys()]).toEqual(subjects);
    const ratios = rowsOf(measurements, /^time per call, ratio per round$/);
    const client = figures.get('@dataworkz/client') ?? [];
    const raw = figures.get('raw fetch') ?? [];
    expect(ratios.get('@dataworkz/client ÷ raw fetch')).toEqual(client.map((c, i) => c / (raw[i] as number)));
    // The like-for-like comparison: both subjects bound each call by a time-out.
    const timed = figures.get('openapi-fetch with a time-out') ?? [];
    expect(ratios.get('@dataworkz/client ÷ openapi-fetch with a time-out')).toEqual(
      client.map((c, i) => c / (timed[i] as number)),
    );
    expect([...ratios.keys()]).toContain('openapi-fetch with a time-out ÷ openapi-fetch alone');
    const cpu = rowsOf(measurements, /calling process's CPU time per call$/);
    expect([...cpu.keys()]).toEqual(subjects);
    for (const samples of cpu.values()) for (const us of samples) expect(us).toBeGreaterThan(0);
    const goals = measurements.filter((m) => m.goals).map((m) => [m.subject, m.goals]);
    // Judged against the like-for-like baseline only; raw fetch is printed, not judged.
    expect(goals).toEqual([
      ['@dataworkz/client ÷ openapi-fetch with a time-out', [{ kind: 'max', value: 1.03 }]],
    ]);
  });

  it('give calls per second with calls in flight, with their goals', async () => {
    const { measurements } = await measureCalls({
      target: target(),
      blockCalls: 20,
      inFlight: 10,
      rounds: 2,
    });
    expect(measurements.filter((m) => m.unit === 'calls/s')).toHaveLength(4);
    const goals = measurements.filter((m) => m.goals).map((m) => [m.subject, m.goals]);
    expect(goals).toEqual([
      ['@dataworkz/client ÷ openapi-fetch with a time-out', [{ kind: 'min', value: 0.95 }]],
    ]);
  });

  it('replay the emulator’s answer and refuse a request without the credential', async () => {
    const recorded = await recordResponse(target());
    const direct = await (
      await realFetch(`${target().url}/api/qna/v1/systems`, { headers: { authorization: 'SSWS test-key' } })
    ).json();
    const replay = new ReplayingFetch(recorded, target());
    replay.prepare(2);
    replay.check = true;
    const answered = await replay.fetch(`${target().url}/api/qna/v1/systems`, {
      headers: { authorization: 'SSWS test-key' },
    });
    expect(await answered.json()).toEqual(direct);
    expect(() =>
      replay.fetch(`${target().url}/api/qna/v1/systems`, { headers: { authorization: 'SSWS other' } }),
    ).toThrow(/authorization/);
  });

  it('measure each subject’s time and heap per call with the network taken out', async () => {
    const cpu = await measureClientCpu({ target: target(), blockCalls: 20, rounds: 2 });
    const times = rowsOf(cpu.measurements, /: CPU time per call$/);
    expect([...times.keys()]).toEqual([
      'raw fetch',
      'openapi-fetch alone',
      '@dataworkz/client',
      '@dataworkz/client, traced (no-op exporter)',
    ]);
    for (const samples of times.values()) for (const us of samples) expect(us).toBeGreaterThan(0);
    const differences = rowsOf(cpu.measurements, /difference per round/);
    const client = times.get('@dataworkz/client') ?? [];
    const raw = times.get('raw fetch') ?? [];
    expect(differences.get('@dataworkz/client − raw fetch')).toEqual(
      client.map((c, i) => c - (raw[i] as number)),
    );
    const traced = times.get('@dataworkz/client, traced (no-op exporter)') ?? [];
    expect(differences.get('@dataworkz/client, traced (no-op exporter) − @dataworkz/client')).toEqual(
      traced.map((t, i) => t - (client[i] as number)),
    );
    // The real fetch is back once the section is done, and no tracer provider is left registered.
    expect(globalThis.fetch).toBe(realFetch);
    expect(trace.getTracer('check').startSpan('check').isRecording()).toBe(false);

    const allocations = await measureAllocations({ target: target(), calls: 20, readings: 2 });
    const heap = rowsOf(allocations.measurements, /heap allocated per call$/);
    expect([...heap.keys()]).toEqual(['raw fetch', 'openapi-fetch alone', '@dataworkz/client']);
    // Every call parses the body, so every subject allocates something per call.
    for (const samples of heap.values()) for (const kib of samples) expect(kib).toBeGreaterThan(0);
  });
});
