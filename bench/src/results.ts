import type { Measurement } from './measurement.js';
import type { Plan } from './plan.js';
import type { Runtime } from './runtimes.js';
import { renderGoalComparison, renderReport } from './table.js';

/** One runtime's share of a run: what its sections measured and noted. */
interface RuntimeRun {
  readonly runtime: Runtime;
  readonly label: string;
  readonly measurements: readonly Measurement[];
  readonly notes: readonly string[];
}

/** Everything one `pnpm bench` run produced, from which both the results file and the site page are written. */
export interface BenchRun {
  /** `Machine: <CPU>, <cores> cores, …` (machineLine). */
  readonly machine: string;
  /** The day the run ended, `YYYY-MM-DD`. */
  readonly date: string;
  readonly plan: Plan;
  readonly runs: readonly RuntimeRun[];
  /** Notes on the runtimes (one left out, say) and the sections that failed. */
  readonly notes: readonly string[];
  /** Whether the size section ran (its figures appear in the first runtime's table only). */
  readonly sizesMeasured: boolean;
}

/** The run's settings in one line: plan, rounds and date. */
export function planLine(run: BenchRun): string {
  const { plan } = run;
  return (
    `Plan: ${plan.name}; ${plan.rounds} round(s) per figure (median, min, max over rounds); the call sections ` +
    `${plan.unaryRounds} (unary), ${plan.concurrentRounds} (concurrency) and ${plan.cpuRounds} (client CPU) rounds of ` +
    `interleaved blocks, compared round by round; ${run.date}. ${
      plan.runtimesSideBySide
        ? 'The runtimes ran side by side, each going through the sections in turn.'
        : 'Each section ran on every runtime in turn.'
    }`
  );
}

/** Every runtime's full table, each under a heading naming its Node version. */
function renderRuntimeTables(run: BenchRun): string[] {
  const first = run.runs[0]?.label;
  return run.runs.map((runtimeRun, index) =>
    renderReport({
      machine: `## ${runtimeRun.label} (${runtimeRun.runtime.origin})`,
      measurements: runtimeRun.measurements,
      notes:
        index === 0 || !run.sizesMeasured
          ? runtimeRun.notes
          : [...runtimeRun.notes, `Bundle sizes do not depend on the runtime: see the ${first} table.`],
    }),
  );
}

/** The run as `bench/results/latest.md` holds it (and as the bench prints it). */
export function renderResults(run: BenchRun): string {
  return [
    run.machine,
    planLine(run),
    ...run.notes,
    '',
    '## Goals by runtime',
    '',
    renderGoalComparison(run.runs),
    ...renderRuntimeTables(run),
  ].join('\n');
}
