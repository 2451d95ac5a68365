/** The drift report's shape and its summary: no spec, no validator, so any runtime can show one. */

/** What differs between a real response and the spec. */
export type DriftKind =
  | 'undocumented-operation'
  | 'undocumented-status'
  | 'undocumented-content-type'
  | 'undocumented-field'
  | 'type-mismatch'
  | 'missing-required'
  | 'invalid-value'
  | 'invalid-json'
  | 'invalid-event';

/** One difference, as often as it was seen, with the first value that showed it. */
export interface DriftFinding {
  kind: DriftKind;
  /** The status the response had (`200`), or `200 event` for a stream's event. */
  response: string;
  /** Where in the body: `queryPlan`, `context[].similarityScore`; empty for the whole response. */
  at: string;
  /** What the spec says there (a type, a status list, a content type list), when it says something. */
  expected?: string;
  /** The first value seen there, cut to 200 characters of JSON. */
  example: unknown;
  count: number;
}

/** The drift report: per operation, the responses checked and what differed from the spec. */
export interface DriftReport {
  /** Responses checked, all operations together. */
  responses: number;
  operations: Record<string, { responses: number; findings: DriftFinding[] }>;
}

/** The report in a few lines, for the console and the end of a recording. */
export function driftSummary(report: DriftReport): string[] {
  const operations = Object.entries(report.operations).filter(([, o]) => o.findings.length > 0);
  if (operations.length === 0) {
    return [`Drift: ${report.responses} responses checked, none differs from the spec.`];
  }
  const lines = [`Drift: ${report.responses} responses checked; where they differ from the spec:`];
  for (const [operationId, { findings }] of operations) {
    for (const f of findings.slice(0, 10)) {
      const where = f.at === '' ? '' : ` ${f.at}`;
      const expected = f.expected === undefined ? '' : ` (spec: ${f.expected})`;
      lines.push(
        `  ${operationId} ${f.response}: ${f.kind}${where}${expected}, seen ${f.count}x, e.g. ${JSON.stringify(f.example)}`,
      );
    }
    if (findings.length > 10) lines.push(`  ${operationId}: ${findings.length - 10} more in the report`);
  }
  return lines;
}
