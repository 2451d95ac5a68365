import { streamRequest } from '@dataworkz/measure';
import type { Measurement, SectionResult } from '../measurement.js';
import { measureCaptureCost } from './capture-cost.js';
import { differenceRows, interleavedRounds, ratioRows } from './rounds.js';

export interface RecorderRequest {
  /** The emulator called directly: the deployment. */
  readonly direct: { readonly url: string; readonly apiKey: string; readonly agentId: string };
  /** The same emulator behind an emulator in record mode, writing its cassette. */
  readonly recorderUrl: string;
  /** Sequential calls per block; each round runs two blocks of each subject. */
  readonly blockCalls: number;
  /** Streams opened per block, for the time to the first event. */
  readonly blockStreams: number;
  readonly rounds: number;
}

const direct = 'direct';
const recorded = 'through the recorder';
const section = '11. recorder overhead';

/**
 * A call and an A2A stream's first event, straight to the emulator and through an emulator recording
 * it, in interleaved rounds. The goal: at most 1 ms more per call and per first event on loopback. The
 * difference is per round (both subjects in the same round), so a slow round slows both alike.
 */
export async function measureRecorder(request: RecorderRequest): Promise<SectionResult> {
  const { apiKey, agentId } = request.direct;
  const headers = { authorization: `SSWS ${apiKey}` };
  const bases = new Map([
    [direct, request.direct.url],
    [recorded, request.recorderUrl],
  ]);
  const call = async (base: string) => {
    const response = await fetch(`${base}/api/qna/v1/systems`, { headers });
    await response.arrayBuffer();
  };
  /** Milliseconds from sending the message to the first event's bytes; the rest of the stream is read too. */
  const firstEvent = async (base: string): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${base}/api/agents/v1/a2a/${agentId}/stream`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: streamRequest('Where is order 1001?'),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    const ms = performance.now() - started;
    if (first.done) throw new Error('the stream ended before its first event');
    // Read to the end: a stream cut short would leave the recorder an exchange that never ends.
    while (!(await reader.read()).done) {}
    return ms;
  };
  const names = [...bases.keys()];
  // Warm-up (recorded too, as any call through the recorder): connections open and code optimised for both.
  for (const base of bases.values()) {
    for (let i = 0; i < 200; i++) await call(base);
    for (let i = 0; i < 10; i++) await firstEvent(base);
  }

  const callsPerRound = request.blockCalls * 2;
  const callTimes = await interleavedRounds(names, request.rounds, async (name) => {
    const base = bases.get(name) as string;
    const started = performance.now();
    for (let i = 0; i < request.blockCalls; i++) await call(base);
    return performance.now() - started;
  });
  const perCall = new Map([...callTimes].map(([name, ms]) => [name, ms.map((t) => t / callsPerRound)]));

  const streamsPerRound = request.blockStreams * 2;
  const firstEventTimes = await interleavedRounds(names, request.rounds, async (name) => {
    const base = bases.get(name) as string;
    let sum = 0;
    for (let i = 0; i < request.blockStreams; i++) sum += await firstEvent(base);
    return sum;
  });
  const perFirstEvent = new Map(
    [...firstEventTimes].map(([name, ms]) => [name, ms.map((t) => t / streamsPerRound)]),
  );

  const callMetric = `sequential calls, list QnA systems, ${request.rounds} rounds of 2 blocks of ${request.blockCalls} calls: time per call`;
  const streamMetric = `A2A stream, ${request.rounds} rounds of 2 blocks of ${request.blockStreams} streams: time to the first event`;
  // The goal is on the difference per round, not on the difference of the two medians: both subjects
  // of a round ran side by side, so a round slowed by other work on the machine slows both and its
  // difference holds, where the medians of two spread-out series can come from different rounds.
  const goal = [{ kind: 'max' as const, value: 1 }];
  const rows = (metric: string, perRound: Map<string, number[]>): Measurement[] => [
    {
      section,
      metric,
      subject: recorded,
      unit: 'ms',
      samples: perRound.get(recorded) ?? [],
      baseline: direct,
    },
    { section, metric, subject: direct, unit: 'ms', samples: perRound.get(direct) ?? [] },
    ...differenceRows(section, `${metric}, difference per round`, 'ms', perRound, [
      { subject: recorded, baseline: direct },
    ]).map((row) => ({ ...row, goals: goal })),
    ...ratioRows(section, `${metric}, ratio per round`, perRound, [{ subject: recorded, baseline: direct }]),
  ];
  return {
    measurements: [
      ...rows(callMetric, perCall),
      ...rows(streamMetric, perFirstEvent),
      ...(await measureCaptureCost(section, Math.max(20, request.rounds * 4))),
    ],
    notes: [
      'The recorder writes its cassette to a temporary file as it runs; the measured calls include that.',
      'The capture row times the recording of one large answer alone: it runs after the caller has the answer.',
    ],
  };
}
