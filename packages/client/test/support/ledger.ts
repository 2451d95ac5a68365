import { verbose } from './verbose.js';

/** Counts injected faults and how each ended; prints the table when the suite ends, if verbose. */
export class FaultLedger {
  private readonly rows: Array<{ fault: string; outcome: string }> = [];

  record(fault: string, outcome: unknown): void {
    const text =
      outcome instanceof Error
        ? `${outcome.name}${'attempts' in outcome && outcome.attempts ? ` after ${outcome.attempts} attempt(s)` : ''}`
        : String(outcome);
    this.rows.push({ fault, outcome: text });
  }

  print(title: string): void {
    if (!verbose) return;
    console.log(`${title}: ${this.rows.length} faults injected`);
    console.table(this.rows);
  }
}
