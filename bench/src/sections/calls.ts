import type { Goal, Measurement, SectionResult } from '../measurement.js';
import { type CallTarget, callers, callMany, fetchName } from './callers.js';

export interface CallsRequest {
  readonly target: CallTarget;
  readonly calls: number;
  /** 1 for sequential calls. */
  readonly inFlight: number;
  readonly rounds: number;
}

/**
 * The client and raw fetch making the same calls to the same emulator route, alternating which goes
 * first each round. Sequential calls report µs per call; concurrent ones calls per second.
 */
export async function measureCalls(request: CallsRequest): Promise<SectionResult> {
  const { calls, inFlight, rounds } = request;
  const subjects = callers(request.target);
  const names = [...subjects.keys()];
  for (const call of subjects.values()) await callMany(call, Math.min(calls, 500), inFlight);

  const samples = new Map<string, number[]>(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length] as string;
      const started = performance.now();
      await callMany(subjects.get(name) as () => Promise<unknown>, calls, inFlight);
      const ms = performance.now() - started;
      samples.get(name)?.push(inFlight === 1 ? (ms * 1000) / calls : calls / (ms / 1000));
    }
  }

  const sequential = inFlight === 1;
  const count = calls.toLocaleString('en-US');
  const section = sequential ? '1. unary overhead' : '2. concurrency';
  const metric = sequential
    ? `${count} sequential calls, list QnA systems: time per call`
    : `${count} calls, ${inFlight} in flight, list QnA systems: calls/s`;
  // Within 5 % of raw fetch: time per call at most 1.05×, calls per second at least 0.95×.
  const goals: Goal[] = [
    sequential ? { kind: 'ratio-max', value: 1.05 } : { kind: 'ratio-min', value: 0.95 },
  ];
  const measurements: Measurement[] = names.map((name) => ({
    section,
    metric,
    subject: name,
    unit: sequential ? 'µs' : 'calls/s',
    samples: samples.get(name) ?? [],
    ...(name === fetchName ? {} : { baseline: fetchName, goals }),
  }));
  return { measurements, notes: [] };
}
