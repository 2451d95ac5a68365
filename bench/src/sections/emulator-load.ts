import { load } from '../load.js';
import type { Goal, Measurement, SectionResult } from '../measurement.js';

interface LoadTarget {
  readonly name: string;
  readonly url: string;
  readonly apiKey: string;
  readonly systemId: string;
  readonly llmProviderId: string;
}

export interface EmulatorLoadRequest {
  readonly subject: LoadTarget;
  readonly baseline: LoadTarget;
  readonly connections: number;
  readonly seconds: number;
  readonly warmSeconds: number;
  readonly rounds: number;
}

interface Route {
  readonly name: string;
  readonly list: boolean;
  path(target: LoadTarget): string;
}

const routes: readonly Route[] = [
  { name: 'list agents', list: true, path: () => '/api/agents/v1/' },
  { name: 'list QnA systems', list: true, path: () => '/api/qna/v1/systems' },
  {
    name: 'search',
    list: false,
    path: (t) => `/api/qna/v1/systems/${encodeURIComponent(t.systemId)}/search?query=reset%20password`,
  },
  {
    name: 'answer',
    list: false,
    path: (t) =>
      `/api/qna/v1/systems/${encodeURIComponent(t.systemId)}/answer?questionText=${encodeURIComponent(
        'How do I reset my password?',
      )}&llmProviderId=${encodeURIComponent(t.llmProviderId)}`,
  },
];

const section = '5. emulator under load';

/** autocannon against each route of the emulator and of the baseline mock server, alternating. */
export async function measureEmulatorLoad(request: EmulatorLoadRequest): Promise<SectionResult> {
  const { subject, baseline, connections, seconds, warmSeconds, rounds } = request;
  const out: Measurement[] = [];
  for (const route of routes) {
    const samples = new Map<string, { rps: number[]; p50: number[]; p99: number[] }>();
    for (const target of [subject, baseline]) samples.set(target.name, { rps: [], p50: [], p99: [] });
    const run = (target: LoadTarget, seconds: number) =>
      load({
        url: `${target.url}${route.path(target)}`,
        headers: { authorization: `SSWS ${target.apiKey}` },
        connections,
        seconds,
      });
    // One request each first: the emulator loads a system's index and the sentence encoder with its
    // first question, which can outlast a short run. Then a short unrecorded run: both servers warm.
    for (const target of [subject, baseline]) await warmUp(target, route);
    if (warmSeconds > 0) {
      await run(subject, warmSeconds);
      await run(baseline, warmSeconds);
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [subject, baseline] : [baseline, subject];
      for (const target of order) {
        const result = await run(target, seconds);
        const s = samples.get(target.name);
        s?.rps.push(result.requestsPerSecond);
        s?.p50.push(result.p50Ms);
        s?.p99.push(result.p99Ms);
      }
    }
    const where = `${route.name}, ${connections} connections`;
    for (const target of [subject, baseline]) {
      const s = samples.get(target.name);
      if (!s) continue;
      const isSubject = target === subject;
      const rpsGoals: Goal[] = [];
      if (isSubject && route.list) rpsGoals.push({ kind: 'min', value: 3000 });
      if (isSubject) rpsGoals.push({ kind: 'ratio-min', value: 3 });
      const p50Goals: Goal[] = isSubject && route.name === 'search' ? [{ kind: 'max', value: 5 }] : [];
      const base = isSubject ? { baseline: baseline.name } : {};
      out.push(
        {
          section,
          metric: `${where}: req/s`,
          subject: target.name,
          unit: 'req/s',
          samples: s.rps,
          ...base,
          goals: rpsGoals,
        },
        {
          section,
          metric: `${where}: p50 latency`,
          subject: target.name,
          unit: 'ms',
          samples: s.p50,
          ...base,
          goals: p50Goals,
        },
        {
          section,
          metric: `${where}: p99 latency`,
          subject: target.name,
          unit: 'ms',
          samples: s.p99,
          ...base,
        },
      );
    }
  }
  return { measurements: out, notes: [] };
}

async function warmUp(target: LoadTarget, route: Route): Promise<void> {
  const response = await fetch(`${target.url}${route.path(target)}`, {
    headers: { authorization: `SSWS ${target.apiKey}` },
    signal: AbortSignal.timeout(60_000),
  });
  await response.arrayBuffer();
  if (!response.ok)
    throw new Error(`${route.name} on ${target.name}: ${response.status} before the load run`);
}
