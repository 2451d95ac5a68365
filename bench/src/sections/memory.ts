import type { Goal, Measurement, SectionResult } from '../measurement.js';
import { a2aName, readWithDataworkz } from './a2a-reader.js';
import { type CallTarget, callMany, clientCall, clientName, fetchName, rawFetchCall } from './callers.js';
import { readWithParser, type StreamTarget } from './stream-readers.js';

export interface MemoryCallsRequest {
  readonly target: CallTarget;
  readonly calls: number;
  readonly warmCalls: number;
  readonly subject: 'client' | 'fetch';
}

export interface MemoryStreamRequest {
  readonly target: StreamTarget;
  readonly warmEvents: number;
  readonly subject: 'a2a' | 'parser';
}

const section = '4. memory';
const parserName = 'raw fetch + eventsource-parser';
const mib = 1024 * 1024;
const growthGoal: Goal[] = [{ kind: 'max', value: 20 }];
/**
 * The goal for 10,000 calls. Node 24's allocator keeps the pages it reserved for undici's buffers
 * (raw fetch grows ~100 MiB there too, the V8 heap staying flat), so on Node 24 and later the goal
 * is the growth relative to raw fetch in the same run; on earlier versions, the growth itself.
 */
const callGrowthGoal: Goal[] =
  Number(process.versions.node.split('.')[0]) >= 24 ? [{ kind: 'ratio-max', value: 1.1 }] : growthGoal;
/** Calls kept in flight while counting memory: enough to be quick, few enough to be a steady load. */
const inFlight = 10;

/** RSS after warm-up calls and after `calls` more calls, in this fresh process (run with --expose-gc). */
export async function measureCallMemory(request: MemoryCallsRequest): Promise<SectionResult> {
  const isClient = request.subject === 'client';
  const call = isClient ? clientCall(request.target) : rawFetchCall(request.target);
  await callMany(call, request.warmCalls, inFlight);
  const before = settledRss();
  await callMany(call, request.calls, inFlight);
  const after = settledRss();
  const name = isClient ? clientName : fetchName;
  return growth(
    `${request.calls.toLocaleString('en-US')} calls`,
    name,
    before,
    after,
    isClient ? fetchName : undefined,
    callGrowthGoal,
  );
}

/** RSS after a short warm-up stream and after one long stream, in this fresh process. */
export async function measureStreamMemory(request: MemoryStreamRequest): Promise<SectionResult> {
  const isOurs = request.subject === 'a2a';
  const read = isOurs ? readWithDataworkz : readWithParser;
  await read({ ...request.target, events: request.warmEvents });
  const before = settledRss();
  await read(request.target);
  const after = settledRss();
  const name = isOurs ? a2aName : parserName;
  const events = request.target.events.toLocaleString('en-US');
  return growth(`a ${events}-event stream`, name, before, after, isOurs ? parserName : undefined, growthGoal);
}

function growth(
  metric: string,
  subject: string,
  before: number,
  after: number,
  baseline: string | undefined,
  goals: readonly Goal[],
): SectionResult {
  const compared = baseline ? { baseline } : {};
  const measurements: Measurement[] = [
    {
      section,
      metric: `${metric}: RSS growth`,
      subject,
      unit: 'MiB',
      samples: [(after - before) / mib],
      ...compared,
      ...(baseline ? { goals } : {}),
    },
    { section, metric: `${metric}: RSS after`, subject, unit: 'MiB', samples: [after / mib], ...compared },
  ];
  return { measurements, notes: [] };
}

/** RSS once garbage has been collected, so only what is still held counts. */
function settledRss(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('memory is measured in a process started with --expose-gc');
  gc();
  gc();
  return process.memoryUsage.rss();
}
