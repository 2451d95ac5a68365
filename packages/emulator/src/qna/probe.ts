import { randomUUID } from '../neutral/crypto.js';

/** One step of a query's pipeline, timed as it ran. */
export interface ProbeStep {
  /** The kind of step, e.g. `MERGE_NEIGHBOURING_CONTEXT`; also the node's id (unique in a pipeline). */
  ref: string;
  startMillis: number;
  endMillis: number;
  /** The step's data, described only when a probe is asked for. */
  data: () => Record<string, unknown>;
}

function node(ref: string, startMillis: number, endMillis: number, rest: object) {
  return {
    id: ref,
    ref,
    instanceId: randomUUID(),
    startMillis,
    endMillis,
    durationMillis: endMillis - startMillis,
    status: 'COMPLETED',
    statusMessage: '',
    ...rest,
  };
}

/** Times a step: runs `run` (until its promise settles, for an async one); `data` describes what it returned, if a probe is asked for. */
export async function timed<T>(
  ref: string,
  run: () => T | Promise<T>,
  data: (value: T) => Record<string, unknown>,
): Promise<{ value: T; step: ProbeStep }> {
  const startMillis = Date.now();
  const value = await run();
  const step: ProbeStep = { ref, startMillis, endMillis: Date.now(), data: () => data(value) };
  return { value, step };
}

/** The probe as deployments send it: the pipeline's root node with one child per step. */
export function probeTree(pipeline: string, startMillis: number, steps: ProbeStep[]) {
  return node(pipeline, startMillis, Date.now(), {
    __DW__pipeline: true,
    children: steps.map((s) => node(s.ref, s.startMillis, s.endMillis, { data: s.data(), children: [] })),
  });
}
