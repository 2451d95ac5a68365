import type { Measurement, SectionResult } from '../measurement.js';
import { ratioRows } from './rounds.js';
import {
  readWithParser,
  readWithPassThrough,
  readWithSdkTransport,
  type StreamReading,
  type StreamTarget,
} from './stream-readers.js';

export interface StreamingRequest {
  readonly target: StreamTarget;
  readonly rounds: number;
}

const section = '3. streaming';
const parserName = 'raw fetch + eventsource-parser';
const sdkName = '@a2a-js/sdk JsonRpcTransport';
const passThroughName = '@a2a-js/sdk JsonRpcTransport, events passed through';

type Reader = (target: StreamTarget) => Promise<StreamReading>;

/** The same stream read by each client in turn, rotating the order every round. */
export async function measureStreaming(
  request: StreamingRequest,
  readers: ReadonlyMap<string, Reader>,
): Promise<SectionResult> {
  const all = new Map<string, Reader>([
    [parserName, readWithParser],
    [sdkName, readWithSdkTransport],
    [passThroughName, readWithPassThrough],
    ...readers,
  ]);
  const names = [...all.keys()];
  // One unrecorded pass each: warms the JIT on both ends and has the server record the stream.
  for (const reader of all.values()) await reader(request.target);

  const rates = new Map<string, number[]>(names.map((n) => [n, []]));
  const firsts = new Map<string, number[]>(names.map((n) => [n, []]));
  for (let round = 0; round < request.rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length] as string;
      const reading = await (all.get(name) as Reader)(request.target);
      rates.get(name)?.push(reading.events / (reading.totalMs / 1000));
      firsts.get(name)?.push(reading.firstEventMs);
    }
  }

  const events = request.target.events.toLocaleString('en-US');
  const out: Measurement[] = [];
  for (const name of names) {
    out.push({
      section,
      metric: `${events}-event stream: events/s`,
      subject: name,
      unit: 'events/s',
      samples: rates.get(name) ?? [],
      ...compared(name),
      // A floor, not a target: the wrapper keeps at least 0.80× the rate of the SDK transport it wraps.
      goals: name.startsWith('@dataworkz/') ? [{ kind: 'ratio-min', value: 0.8 }] : [],
    });
  }
  for (const name of names) {
    if (!name.startsWith('@dataworkz/')) continue;
    // The same samples against the bare floor, so the cost of the whole stack stays in view.
    out.push({
      section,
      metric: `${events}-event stream: events/s against the bare parser`,
      subject: name,
      unit: 'events/s',
      samples: rates.get(name) ?? [],
      baseline: parserName,
    });
  }
  out.push({
    section,
    metric: `${events}-event stream: events/s against the bare parser`,
    subject: parserName,
    unit: 'events/s',
    samples: rates.get(parserName) ?? [],
  });
  // Both readings of a pair come from the same round, so a slow stretch of the machine slows both.
  const wrappers = names.filter((name) => name.startsWith('@dataworkz/') || name === passThroughName);
  out.push(
    ...ratioRows(
      section,
      `${events}-event stream: events/s, ratio per round`,
      rates,
      wrappers.map((subject) => ({ subject, baseline: sdkName })),
    ),
  );
  for (const name of names) {
    out.push({
      section,
      metric: `${events}-event stream: time to first event`,
      subject: name,
      unit: 'ms',
      samples: firsts.get(name) ?? [],
      ...compared(name),
      goals: name.startsWith('@dataworkz/') ? [{ kind: 'delta-max', value: 1 }] : [],
    });
  }
  return { measurements: out, notes: [] };
}

/**
 * The SDK transport is measured against the bare parser; the wrapper, and the pass-through that shows
 * what any wrapper costs at least, against the SDK transport they wrap.
 */
function compared(name: string): { baseline?: string } {
  if (name === parserName) return {};
  return name.startsWith('@dataworkz/') || name === passThroughName
    ? { baseline: sdkName }
    : { baseline: parserName };
}
