/** How hard a run attacks: `quick` for CI (about a minute in all), `full` for the figures. */
export type Size = 'quick' | 'full';

/** What one case measured about the process it attacked. */
export interface CaseFigures {
  /** `pass` when the target behaved as wanted, `fail` when it did not. */
  outcome: 'pass' | 'fail';
  /** What was seen, in a few words (the answer, the error, the count). */
  note: string;
  /** Time until the answer or error the case waited for, in ms. */
  answerMs?: number;
  /** Peak resident memory of the attacked process, in bytes. */
  peakRss?: number;
  /** Open descriptors of the attacked process before and after the attack. */
  fds?: { before: number | undefined; after: number | undefined };
  /** One more figure worth a column of its own (retained memory, time to recover, ...). */
  extra?: string;
}

/** One attack: a name, and a run at a given size that reports its figures. */
export interface HostileCase {
  name: string;
  run(size: Size): Promise<CaseFigures>;
}

/** A group of cases against one kind of target, chosen on the command line with `--suite`. */
export interface Suite {
  name: string;
  description: string;
  cases: HostileCase[];
  /** Ends whatever a case left running (after each case, whether it passed, failed or timed out). */
  cleanup?(): Promise<void>;
}
