import type { Measurement, SectionResult } from '../measurement.js';
import { type Call, type CallTarget, clientName, fetchName, openapiFetchName } from './callers.js';
import { type ReplayingFetch, withReplayingCallers } from './recorded-fetch.js';
import { differenceRows, interleavedRounds, type Pairing } from './rounds.js';
import { Tracing } from './tracing.js';

export interface ClientCpuRequest {
  /** The emulator whose answer the in-process fetch replays. */
  readonly target: CallTarget;
  readonly blockCalls: number;
  readonly rounds: number;
}

export const cpuSection = '10. client CPU per call';
/** The client again, with an OpenTelemetry SDK registered around its blocks (spans sent nowhere). */
export const tracedName = '@dataworkz/client, traced (no-op exporter)';
/** What each subject adds: the client over both baselines, and openapi-fetch over raw fetch. */
export const cpuPairings: readonly Pairing[] = [
  { subject: clientName, baseline: fetchName },
  { subject: clientName, baseline: openapiFetchName },
  { subject: openapiFetchName, baseline: fetchName },
];

/**
 * The three subjects with the network taken out: the global fetch answers at once with the
 * emulator's recorded response, so a call's time is the CPU the caller spends around fetch (building
 * the request, reading and parsing the body, promises). Interleaved blocks as in the call sections;
 * the per-round differences to raw fetch are what the client and openapi-fetch add, in µs.
 */
export function measureClientCpu(request: ClientCpuRequest): Promise<SectionResult> {
  const { blockCalls, rounds } = request;
  return withReplayingCallers(request.target, async (replay, subjects) => {
    const tracing = new Tracing();
    const client = subjects.get(clientName) as Call;
    const names = [...subjects.keys(), tracedName];
    for (const call of subjects.values()) await warmUp(replay, call, Math.max(blockCalls, 200));
    tracing.on();
    await warmUp(replay, client, Math.max(blockCalls, 200));
    tracing.off();
    const times = await interleavedRounds(names, rounds, async (name) => {
      const traced = name === tracedName;
      const call = traced ? client : (subjects.get(name) as Call);
      replay.prepare(blockCalls);
      if (traced) tracing.on();
      // CPU time, not wall time: nothing here waits, and on a shared machine a block that is
      // descheduled for a few ms would otherwise count them as the subject's.
      const started = process.cpuUsage();
      for (let i = 0; i < blockCalls; i++) await call();
      const { user, system } = process.cpuUsage(started);
      if (traced) tracing.off();
      return (user + system) / 1000;
    });
    const perRound = new Map(
      [...times].map(([name, ms]) => [name, ms.map((t) => (t * 1000) / (2 * blockCalls))]),
    );
    const block = `${rounds} rounds of 2 blocks of ${blockCalls.toLocaleString('en-US')} calls per subject`;
    const rows: Measurement[] = names.map((name) => ({
      section: cpuSection,
      metric: `in-process fetch, ${block}: CPU time per call`,
      subject: name,
      unit: 'µs',
      samples: perRound.get(name) ?? [],
    }));
    const metric = 'CPU time per call, difference per round';
    const differences = differenceRows(cpuSection, metric, 'µs', perRound, [
      ...cpuPairings,
      { subject: tracedName, baseline: clientName },
    ]);
    return {
      measurements: [...rows, ...differences],
      notes: [
        'Client CPU per call: the fetch answers in-process at once, so what a real fetch does with the ' +
          "request (a time-out signal's listeners, sockets) is not in these figures; the unary section has it. " +
          "The time is the process's CPU time, all its threads (the collector's) included. " +
          'The traced subject is the same client with the OpenTelemetry SDK registered around its blocks ' +
          '(a tracer provider whose exporter drops every span, the W3C propagator, an AsyncLocalStorage context ' +
          'manager); its difference to the client is what tracing adds per call. Without a provider (every other ' +
          'subject) the API is a no-op.',
      ],
    };
  });
}

/** Unrecorded calls, the first checked: the route and credential each subject sends are the same. */
export async function warmUp(replay: ReplayingFetch, call: Call, calls: number): Promise<void> {
  replay.prepare(calls);
  replay.check = true;
  await call();
  replay.check = false;
  for (let i = 1; i < calls; i++) await call();
}
