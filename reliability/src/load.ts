import { parseArgs } from 'node:util';
import { EmulatorProcess } from './emulator-process.js';
import { errorSummary, mb } from './figures.js';
import { concurrentStreams, concurrentUnary, type ScenarioResult, sequentialUnary } from './scenarios.js';

/**
 * Load and soak of the clients against the emulator on loopback. Prints its figures; exits 1 on any
 * error, lost event, or (full run only) RSS growth over the budget. `--quick` runs small counts for CI.
 */
const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const counts = values.quick
  ? { streams: 25, unary: 250, soak: 1000, warmUp: 1000 }
  : { streams: 500, unary: 5000, soak: 10_000, warmUp: 10_000 };
const RSS_BUDGET_BYTES = 20 * 1024 * 1024;
const SOAK_PARALLEL = 20;

function clientMemory(): { rss: number; heapUsed: number; heapTotal: number } {
  if (!globalThis.gc) throw new Error('Run with --expose-gc so memory is measured after a collection.');
  globalThis.gc();
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  return { rss, heapUsed, heapTotal };
}

const emulator = await EmulatorProcess.start({
  // A short pause per task update keeps every stream open at the same time, as a real agent would.
  agentStepDelayMs: 5,
  limits: { maxConcurrentStreams: counts.streams * 2, requestTimeoutMs: 120_000 },
});
const failures: string[] = [];
try {
  console.log(`load against the emulator at ${emulator.url}${values.quick ? ' (quick)' : ''}`);
  // The soak runs first, so the concurrent runs' peak does not hide its growth.
  // Warm-up first: JIT code, V8's young generation and the allocator's arenas grow in steps over the
  // first several thousand calls (measured: RSS rises ~25 MB by 6,000 calls, then ~0.5 MB per 2,000
  // while the live heap stays flat). A leak is growth after that, so the soak measures steady state.
  const clientStart = clientMemory();
  const warmUpErrors = await sequentialUnary(emulator, counts.warmUp, SOAK_PARALLEL);
  const clientBefore = clientMemory();
  const emulatorBefore = await emulator.memory();
  const started = performance.now();
  const soakErrors = await sequentialUnary(emulator, counts.soak, SOAK_PARALLEL);
  const seconds = (performance.now() - started) / 1000;
  const clientAfter = clientMemory();
  const emulatorAfter = await emulator.memory();
  const growth = clientAfter.rss - clientBefore.rss;
  console.log(
    `soak: ${counts.soak} calls (${SOAK_PARALLEL} at a time) in ${seconds.toFixed(2)} s, errors: ${errorSummary([...warmUpErrors, ...soakErrors])}`,
  );
  console.log(
    `  warm-up: ${counts.warmUp} calls, client RSS ${mb(clientStart.rss)} -> ${mb(clientBefore.rss)}, heap reserved ${mb(clientStart.heapTotal)} -> ${mb(clientBefore.heapTotal)}`,
  );
  console.log(
    `  client RSS ${mb(clientBefore.rss)} -> ${mb(clientAfter.rss)} (growth ${mb(growth)}, budget ${mb(RSS_BUDGET_BYTES)}), heap used ${mb(clientBefore.heapUsed)} -> ${mb(clientAfter.heapUsed)}, heap reserved ${mb(clientBefore.heapTotal)} -> ${mb(clientAfter.heapTotal)}`,
  );
  console.log(
    `  emulator RSS ${mb(emulatorBefore.rss)} -> ${mb(emulatorAfter.rss)}, heap ${mb(emulatorBefore.heapUsed)} -> ${mb(emulatorAfter.heapUsed)}, open streams ${emulatorAfter.openStreams}`,
  );
  if (warmUpErrors.length + soakErrors.length > 0) failures.push('soak errors');
  // A thousand calls say little about growth; the quick run only prints it.
  if (!values.quick && growth > RSS_BUDGET_BYTES) failures.push('soak RSS growth');
  if (emulatorAfter.openStreams !== 0) failures.push('streams left open');
  const results: ScenarioResult[] = [];
  results.push(await concurrentStreams(emulator, counts.streams));
  results.push(await concurrentUnary(emulator, counts.unary));
  for (const result of results) {
    console.log(`${result.name}: ${result.runs}, errors ${result.errors}, lost events ${result.lostEvents}`);
    console.log(`  ${result.figures}`);
    if (result.errors > 0 || result.lostEvents > 0) failures.push(result.name);
  }
} finally {
  await emulator.close();
}
if (failures.length > 0) {
  console.error(`load failed: ${failures.join(', ')}`);
  process.exitCode = 1;
} else {
  console.log('load passed');
}
