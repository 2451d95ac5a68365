import type { Measurement, SectionResult } from '../measurement.js';
import {
  type CallTarget,
  callers,
  callMany,
  clientName,
  fetchName,
  openapiFetchName,
  openapiFetchTimeoutName,
} from './callers.js';
import { interleavedRounds, type Pairing, ratioRows } from './rounds.js';

export interface CallsRequest {
  readonly target: CallTarget;
  /** Calls in each block; every round runs two blocks of each subject. */
  readonly blockCalls: number;
  /** 1 for sequential calls. */
  readonly inFlight: number;
  readonly rounds: number;
}

/**
 * Raw fetch, openapi-fetch alone (bare, and with a time-out signal per call) and the client making the same calls to the same emulator route, in
 * short interleaved blocks (two per subject and round, see blockOrder). Sequential calls report µs per
 * call, concurrent ones calls per second; the comparisons are the medians of the per-round ratios.
 */
export async function measureCalls(request: CallsRequest): Promise<SectionResult> {
  const { blockCalls, inFlight, rounds } = request;
  const subjects = callers(request.target, true);
  const names = [...subjects.keys()];
  // Unrecorded warm-up: connections open, code optimised, for every subject alike.
  for (const call of subjects.values()) await callMany(call, Math.min(blockCalls * 2, 1_000), inFlight);

  // The calling process's CPU time per subject and round, beside the wall time.
  const cpuUs = new Map(names.map((name) => [name, new Array<number>(rounds).fill(0)]));
  const times = await interleavedRounds(names, rounds, async (name, round) => {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await callMany(subjects.get(name) as () => Promise<unknown>, blockCalls, inFlight);
    const ms = performance.now() - started;
    const { user, system } = process.cpuUsage(cpuBefore);
    const spent = cpuUs.get(name) as number[];
    spent[round] = (spent[round] ?? 0) + user + system;
    return ms;
  });
  const sequential = inFlight === 1;
  const callsPerRound = blockCalls * 2;
  // Per round and subject: µs per call, or calls per second.
  const perRound = new Map(
    [...times].map(([name, ms]) => [
      name,
      ms.map((t) => (sequential ? (t * 1000) / callsPerRound : callsPerRound / (t / 1000))),
    ]),
  );

  const block = `${rounds} rounds of 2 blocks of ${blockCalls.toLocaleString('en-US')} calls per subject`;
  const section = sequential ? '1. unary overhead' : '2. concurrency';
  const figure = sequential ? 'time per call' : 'calls/s';
  const metric = sequential
    ? `sequential calls, list QnA systems, ${block}: ${figure}`
    : `${inFlight} in flight, list QnA systems, ${block}: ${figure}`;
  const rows: Measurement[] = names.map((name) => ({
    section,
    metric,
    subject: name,
    unit: sequential ? 'µs' : 'calls/s',
    samples: perRound.get(name) ?? [],
  }));
  // The goals compare like with like: openapi-fetch with a time-out bounds every call as the client
  // does. Time per call at most 1.03× of it; calls per second at least 0.95× of it. Raw fetch and
  // openapi-fetch alone are printed, not judged: the floor the stack sets, and what the time-out costs.
  const pairings: Pairing[] = sequential
    ? [
        { subject: clientName, baseline: openapiFetchTimeoutName, goals: [{ kind: 'max', value: 1.03 }] },
        { subject: clientName, baseline: fetchName },
        { subject: clientName, baseline: openapiFetchName },
        { subject: openapiFetchName, baseline: fetchName },
        { subject: openapiFetchTimeoutName, baseline: openapiFetchName },
      ]
    : [
        { subject: clientName, baseline: openapiFetchTimeoutName, goals: [{ kind: 'min', value: 0.95 }] },
        { subject: clientName, baseline: fetchName },
        { subject: clientName, baseline: openapiFetchName },
        { subject: openapiFetchName, baseline: fetchName },
        { subject: openapiFetchTimeoutName, baseline: openapiFetchName },
      ];
  const ratios = ratioRows(section, `${figure}, ratio per round`, perRound, pairings);
  // The CPU the calling process spends per call: what the subject costs, whatever else runs on the
  // machine (a descheduled block's wait is not in it). Not the goal's figure: the server's share and
  // the wait for the answer are left out.
  const cpuPerCall = new Map([...cpuUs].map(([name, us]) => [name, us.map((u) => u / callsPerRound)]));
  const cpuMetric = `${block}: calling process's CPU time per call`;
  const cpuRows: Measurement[] = names.map((name) => ({
    section,
    metric: cpuMetric,
    subject: name,
    unit: 'µs',
    samples: cpuPerCall.get(name) ?? [],
  }));
  const cpuRatios = ratioRows(
    section,
    "calling process's CPU time per call, ratio per round",
    cpuPerCall,
    pairings.map(({ subject, baseline }) => ({ subject, baseline })),
  );
  return { measurements: [...rows, ...ratios, ...cpuRows, ...cpuRatios], notes: [] };
}
