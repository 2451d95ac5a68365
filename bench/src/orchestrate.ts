import { askChild, stopChild } from '@dataworkz/measure';
import type { Measurement, SectionResult } from './measurement.js';
import { measuredPackages } from './packages.js';
import { distModule } from './paths.js';
import type { Plan } from './plan.js';
import type { Runtime } from './runtimes.js';
import type { SectionRequest } from './section-main.js';
import { measureCliBatch } from './sections/cli-batch.js';
import { measureCliEval } from './sections/cli-eval.js';
import { measureCliStart } from './sections/cli-start.js';
import { measureEmulatorStart } from './sections/emulator-start.js';
import { measureImportTimes } from './sections/import-time.js';
import { measureSizes } from './sections/size.js';
import { startPrism } from './servers/prism.js';
import type { ServerInfo, ServerKind } from './servers/server-info.js';

export const sectionNames = [
  'unary',
  'concurrency',
  'client-cpu',
  'streaming',
  'memory',
  'emulator',
  'size',
  'retrieval',
  'mcp',
  'cli',
  'recorder',
  'emulator-start',
] as const;
export type SectionName = (typeof sectionNames)[number];

/**
 * Runs one section on one runtime: servers in their own processes, the measuring code in a fresh one,
 * all on the runtime's Node. Bundle sizes do not depend on the runtime; `sizes: false` skips them.
 */
export function runSection(
  name: SectionName,
  plan: Plan,
  runtime: Runtime,
  { sizes = true }: { sizes?: boolean } = {},
): Promise<SectionResult> {
  const withServer = serverFor(plan);
  switch (name) {
    case 'unary':
    case 'concurrency':
      return withServer(runtime, 'emulator', (target) =>
        inChild(runtime, plan, {
          section: 'calls',
          target: { url: target.url, apiKey: target.apiKey },
          blockCalls: name === 'unary' ? plan.unaryBlockCalls : plan.concurrentBlockCalls,
          inFlight: name === 'unary' ? 1 : plan.inFlight,
          rounds: name === 'unary' ? plan.unaryRounds : plan.concurrentRounds,
        }),
      );
    case 'client-cpu':
      return withServer(runtime, 'emulator', async (target) => {
        const emulator = { url: target.url, apiKey: target.apiKey };
        const cpu = await inChild(runtime, plan, {
          section: 'client-cpu',
          target: emulator,
          blockCalls: plan.cpuBlockCalls,
          rounds: plan.cpuRounds,
        });
        // Its own process: a young generation large enough that no collection runs inside a reading.
        const allocations = await inChild(
          runtime,
          plan,
          {
            section: 'allocations',
            target: emulator,
            calls: plan.allocationCalls,
            readings: plan.allocationReadings,
          },
          ['--min-semi-space-size=64', '--max-semi-space-size=64'],
        );
        return merge([cpu, allocations]);
      });
    case 'memory':
      return memory(runtime, plan);
    case 'streaming':
      return withServer(runtime, 'stream-source', (target) =>
        inChild(runtime, plan, {
          section: 'streaming',
          target: { url: target.url, apiKey: target.apiKey, events: plan.streamEvents },
          rounds: plan.streamRounds,
        }),
      );
    case 'emulator': {
      // Prism takes seconds to start: it starts beside the emulator, not after it.
      const prismStarting = startPrism(runtime.execPath);
      // Awaited only once the emulator is up: a failure before then is not an unhandled rejection.
      prismStarting.catch(() => undefined);
      return withServer(runtime, 'emulator', async (emulator) => {
        const prism = await prismStarting;
        try {
          return await inChild(runtime, plan, {
            section: 'emulator-load',
            subject: {
              name: '@dataworkz/emulator',
              url: emulator.url,
              apiKey: emulator.apiKey,
              systemId: emulator.systemId ?? '',
              llmProviderId: emulator.llmProviderId ?? '',
            },
            // Prism answers any id from the spec's examples.
            baseline: {
              name: 'Prism mock server',
              url: prism.url,
              apiKey: 'prism',
              systemId: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
              llmProviderId: 'llm-1',
            },
            connections: plan.loadConnections,
            seconds: plan.loadSeconds,
            warmSeconds: plan.loadWarmSeconds,
            rounds: plan.loadRounds,
          });
        } finally {
          await prism.close();
        }
      }).catch(async (error: unknown) => {
        // The emulator failed: Prism may have started all the same, and must not outlive the run.
        await prismStarting.then(
          (prism) => prism.close(),
          () => undefined,
        );
        throw error;
      });
    }
    case 'size':
      return sizeAndImport(runtime, plan, sizes);
    case 'retrieval':
      // Three emulators that each index the corpus on start: started at once, not one after another.
      return withServers(
        plan,
        runtime,
        ['emulator', 'emulator-word-vectors', 'emulator-lexical'],
        ([emulator, wordVectors, lexical]) =>
          inChild(runtime, plan, {
            section: 'retrieval',
            subject: { name: 'sentence encoder + word vectors + BM25', ...retrievalTarget(emulator) },
            baseline: { name: 'word vectors + BM25 (0.2)', ...retrievalTarget(wordVectors) },
            lexical: { name: 'BM25 only (earlier)', ...retrievalTarget(lexical) },
            connections: plan.loadConnections,
            seconds: plan.loadSeconds,
            rounds: plan.loadRounds,
            ...(plan.retrievalQuestionsPerKind === undefined
              ? {}
              : { questionsPerKind: plan.retrievalQuestionsPerKind }),
          }),
      );
    case 'mcp':
      return withServer(runtime, 'emulator', (target) =>
        inChild(runtime, plan, {
          section: 'mcp-calls',
          target: { url: target.url, apiKey: target.apiKey, systemId: target.systemId ?? '' },
          calls: plan.mcpCalls,
          rounds: plan.rounds,
        }),
      );
    case 'recorder':
      return withServer(runtime, 'emulator', (deployment) =>
        withServer(
          runtime,
          'recorder',
          (recorder) =>
            inChild(runtime, plan, {
              section: 'recorder',
              direct: { url: deployment.url, apiKey: deployment.apiKey, agentId: deployment.agentId ?? '' },
              recorderUrl: recorder.url,
              blockCalls: plan.recorderBlockCalls,
              blockStreams: plan.recorderBlockStreams,
              rounds: plan.recorderRounds,
            }),
          deployment.url,
        ),
      );
    case 'emulator-start':
      return measureEmulatorStart(runtime.execPath, plan.emulatorStartRuns);
    case 'cli':
      return withServer(runtime, 'emulator', async (target) => {
        const start = await measureCliStart(
          runtime.execPath,
          { url: target.url, apiKey: target.apiKey },
          plan.cliRuns,
        );
        const batch = await measureCliBatch(runtime.execPath, {
          questions: plan.cliBatchQuestions,
          memoryQuestions: plan.cliMemoryQuestions,
        });
        const evaluation = await measureCliEval(runtime.execPath, {
          questions: plan.cliBatchQuestions,
          memoryQuestions: plan.cliEvalMemoryQuestions,
          limitSeconds: plan.cliLimitSeconds,
        });
        return {
          measurements: [...start.measurements, ...batch.measurements, ...evaluation.measurements],
          notes: [...start.notes, ...batch.notes, ...evaluation.notes],
        };
      });
  }
}

function retrievalTarget(server: ServerInfo) {
  return { url: server.url, apiKey: server.apiKey, systems: server.systems ?? {} };
}

/** Each reading in its own process, so one subject's heap never counts against another. */
async function memory(runtime: Runtime, plan: Plan): Promise<SectionResult> {
  const withServer = serverFor(plan);
  const results: SectionResult[] = [];
  await withServer(runtime, 'emulator', async (emulator) => {
    const target = { url: emulator.url, apiKey: emulator.apiKey };
    for (let round = 0; round < plan.memoryRounds; round++) {
      for (const subject of ['client', 'fetch'] as const) {
        results.push(
          await inChild(runtime, plan, {
            section: 'memory-calls',
            target,
            calls: plan.memoryCalls,
            warmCalls: plan.memoryWarmCalls,
            subject,
          }),
        );
      }
    }
  });
  await withServer(runtime, 'stream-source', async (source) => {
    const target = { url: source.url, apiKey: source.apiKey, events: plan.memoryStreamEvents };
    for (let round = 0; round < plan.memoryRounds; round++) {
      for (const subject of ['a2a', 'parser'] as const) {
        results.push(
          await inChild(runtime, plan, {
            section: 'memory-stream',
            target,
            warmEvents: plan.memoryWarmEvents,
            subject,
          }),
        );
      }
    }
  });
  return merge(results);
}

/** Rows with the same section, metric and subject become one row with all their samples. */
function merge(results: readonly SectionResult[]): SectionResult {
  const rows = new Map<string, Measurement>();
  for (const m of results.flatMap((r) => r.measurements)) {
    const key = `${m.section}\u0000${m.metric}\u0000${m.subject}`;
    const seen = rows.get(key);
    rows.set(key, seen ? { ...seen, samples: [...seen.samples, ...m.samples] } : m);
  }
  return { measurements: [...rows.values()], notes: results.flatMap((r) => r.notes) };
}

async function sizeAndImport(runtime: Runtime, plan: Plan, withSizes: boolean): Promise<SectionResult> {
  const sizes = withSizes
    ? await measureSizes(measuredPackages, plan.sizeBrotliQuality)
    : { measurements: [], notes: [] };
  const imports = await measureImportTimes(measuredPackages, plan.importRuns, runtime.execPath);
  return {
    measurements: [...sizes.measurements, ...imports.measurements],
    notes: [...sizes.notes, ...imports.notes],
  };
}

async function inChild(
  runtime: Runtime,
  plan: Plan,
  request: SectionRequest,
  nodeOptions: readonly string[] = [],
): Promise<SectionResult> {
  const { value, child } = await askChild(distModule('section-main.js'), request, {
    timeoutMs: plan.sectionTimeoutMs,
    execArgv: ['--expose-gc', ...nodeOptions],
    execPath: runtime.execPath,
  });
  await stopChild(child);
  return value as SectionResult;
}

/**
 * How a section gets its servers: a fresh one each (the full plan), or, with `plan.shareServers`, the
 * one of that kind already running on the runtime. A recorder forwards to one deployment: always fresh.
 */
function serverFor(plan: Plan): typeof withServer {
  if (!plan.shareServers) return withServer;
  return async (runtime, kind, use, target) =>
    sharedKinds.has(kind) && target === undefined
      ? use(await sharedServer(runtime, kind))
      : withServer(runtime, kind, use, target);
}

/** The kinds most sections use; the retrieval section's other rankings and a recorder are its own. */
const sharedKinds = new Set<ServerKind>(['emulator', 'stream-source']);

/** The server of `kind` the sections on `runtime` share, started on first use. */
async function sharedServer(runtime: Runtime, kind: ServerKind): Promise<ServerInfo> {
  const key = `${runtime.execPath}\u0000${kind}`;
  let started = shared.get(key);
  if (!started) {
    started = askChild(
      distModule('server-main.js'),
      { kind },
      { timeoutMs: 60_000, execPath: runtime.execPath },
    );
    shared.set(key, started);
  }
  // One that failed to start is tried afresh by the next section.
  const { value } = await started.catch((error: unknown) => {
    shared.delete(key);
    throw error;
  });
  return value as ServerInfo;
}

const shared = new Map<string, ReturnType<typeof askChild>>();

/** Stops the servers sections shared (see `Plan.shareServers`); none are left after a run. */
export async function stopSharedServers(): Promise<void> {
  const started = [...shared.values()];
  shared.clear();
  await Promise.all(
    started.map((s) =>
      s.then(
        ({ child }) => stopChild(child),
        () => undefined,
      ),
    ),
  );
}

/** Runs `use` with a server of `kind` started on the runtime's Node in its own process. */
export async function withServer<T>(
  runtime: Runtime,
  kind: ServerKind,
  use: (server: ServerInfo) => Promise<T>,
  /** The deployment a `recorder` forwards to. */
  target?: string,
): Promise<T> {
  const { value, child } = await askChild(
    distModule('server-main.js'),
    { kind, ...(target ? { target } : {}) },
    { timeoutMs: 60_000, execPath: runtime.execPath },
  );
  try {
    return await use(value as ServerInfo);
  } finally {
    await stopChild(child);
  }
}

/**
 * Runs `use` with a server of each of `kinds`, all started at once, each in its own process; with
 * `plan.shareServers`, the runtime's shared one of a kind it shares.
 */
async function withServers<T>(
  plan: Plan,
  runtime: Runtime,
  kinds: readonly [ServerKind, ServerKind, ServerKind],
  use: (servers: [ServerInfo, ServerInfo, ServerInfo]) => Promise<T>,
): Promise<T> {
  const started = await Promise.allSettled(
    kinds.map((kind) =>
      plan.shareServers && sharedKinds.has(kind)
        ? sharedServer(runtime, kind).then((value) => ({ value, child: undefined }))
        : askChild(distModule('server-main.js'), { kind }, { timeoutMs: 60_000, execPath: runtime.execPath }),
    ),
  );
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const servers = started.map((s) =>
      s.status === 'fulfilled' ? (s.value.value as ServerInfo) : undefined,
    );
    return await use(servers as [ServerInfo, ServerInfo, ServerInfo]);
  } finally {
    await Promise.all(
      started.map((s) => (s.status === 'fulfilled' && s.value.child ? stopChild(s.value.child) : undefined)),
    );
  }
}
