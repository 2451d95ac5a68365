import type { Goal, Measurement } from '../measurement.js';

/**
 * The order of one round's blocks: every subject once, then again in reverse (A B C C B A), starting
 * with the next subject each round. Each subject's two blocks sit symmetrically around the middle of
 * the round, so a drift that grows steadily through the round (a neighbour process starting, the CPU
 * clocking down) adds the same to every subject.
 */
export function blockOrder<T>(subjects: readonly T[], round: number): T[] {
  const forward = subjects.map((_, k) => subjects[(round + k) % subjects.length] as T);
  return [...forward, ...[...forward].reverse()];
}

/**
 * Runs `rounds` rounds of short interleaved blocks (see blockOrder) and returns, per subject, the
 * milliseconds its two blocks took in each round. `runBlock` runs one block of one subject in the
 * given round and resolves with its duration in ms.
 */
export async function interleavedRounds(
  subjects: readonly string[],
  rounds: number,
  runBlock: (subject: string, round: number) => Promise<number>,
): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(subjects.map((s) => [s, []]));
  for (let round = 0; round < rounds; round++) {
    const spent = new Map<string, number>(subjects.map((s) => [s, 0]));
    for (const subject of blockOrder(subjects, round)) {
      spent.set(subject, (spent.get(subject) ?? 0) + (await runBlock(subject, round)));
    }
    for (const subject of subjects) times.get(subject)?.push(spent.get(subject) ?? 0);
  }
  return times;
}

/** A comparison of two subjects made round by round: `subject`'s figure over (or minus) `baseline`'s. */
export interface Pairing {
  readonly subject: string;
  readonly baseline: string;
  readonly goals?: readonly Goal[];
}

/**
 * One row per pairing whose samples are the per-round ratios `subject ÷ baseline` of the figures in
 * `perRound`: both figures come from the same round, so a slow round slows both and its ratio holds.
 * The median of these ratios is the comparison; their spread shows how far noise moves it.
 */
export function ratioRows(
  section: string,
  metric: string,
  perRound: ReadonlyMap<string, readonly number[]>,
  pairings: readonly Pairing[],
): Measurement[] {
  return pairings.map(({ subject, baseline, goals }) => ({
    section,
    metric,
    subject: `${subject} ÷ ${baseline}`,
    unit: '×',
    samples: zip(perRound, subject, baseline, (a, b) => a / b),
    ...(goals ? { goals } : {}),
  }));
}

/** As ratioRows, with the per-round differences `subject − baseline`. */
export function differenceRows(
  section: string,
  metric: string,
  unit: string,
  perRound: ReadonlyMap<string, readonly number[]>,
  pairings: readonly Pairing[],
): Measurement[] {
  return pairings.map(({ subject, baseline }) => ({
    section,
    metric,
    subject: `${subject} − ${baseline}`,
    unit,
    samples: zip(perRound, subject, baseline, (a, b) => a - b),
  }));
}

function zip(
  perRound: ReadonlyMap<string, readonly number[]>,
  subject: string,
  baseline: string,
  combine: (a: number, b: number) => number,
): number[] {
  const ours = perRound.get(subject);
  const theirs = perRound.get(baseline);
  if (!ours || !theirs || ours.length !== theirs.length) {
    throw new Error(`no per-round figures to compare ${subject} with ${baseline}`);
  }
  return ours.map((value, round) => combine(value, theirs[round] as number));
}
