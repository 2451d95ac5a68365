/** What a section reports: one row of the results table, as plain JSON so it crosses process boundaries. */
export interface Measurement {
  /** Section heading, e.g. `1. unary overhead`. */
  readonly section: string;
  /** What was measured, e.g. `µs per call, 2,000 sequential calls`. */
  readonly metric: string;
  /** Who was measured, e.g. `@dataworkz/client` or `raw fetch`. */
  readonly subject: string;
  readonly unit: string;
  /** One value per round; the table shows their median, min and max. */
  readonly samples: readonly number[];
  /** The subject of the row in the same section and metric that this one is compared with. */
  readonly baseline?: string;
  readonly goals?: readonly Goal[];
}

/**
 * A target for a row. `ratio-*` compare the row's median with its baseline's median, `delta-max` the
 * difference between them, `max`/`min` the median itself.
 */
export interface Goal {
  readonly kind: 'ratio-max' | 'ratio-min' | 'delta-max' | 'max' | 'min';
  readonly value: number;
}

/** A section's output: its rows, and notes for the reader (a package that could not be measured, say). */
export interface SectionResult {
  readonly measurements: readonly Measurement[];
  readonly notes: readonly string[];
}
