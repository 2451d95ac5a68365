import { HttpError } from './errors.js';
import { isOperationId, type OperationId, operationIds } from './router.js';

/** A fault to inject into matching requests, for testing clients against a misbehaving service. */
export interface FaultRule {
  /** An operationId of the API (e.g. `searchQnaSystem`), or `*` for every API request. Default `*`. */
  route?: OperationId | '*' | undefined;
  /** How many matching requests it applies to. Default 1. */
  times?: number | undefined;
  /** Delay before answering (or before the other effects of the rule). */
  latencyMs?: number | undefined;
  /** Answer with this status instead of running the operation. */
  status?: number | undefined;
  /** Extra response headers, e.g. `retry-after`, `retry-after-ms`, `x-should-retry`. */
  headers?: Record<string, string> | undefined;
  /** The body sent with `status` (default: the spec's Error body). */
  body?: string | undefined;
  /** Destroy the socket before any response, or after the headers and part of the body or stream. */
  drop?: 'before-headers' | 'during-body' | undefined;
  /**
   * On a stream (such as the A2A stream endpoint): send this many whole events, then destroy the
   * connection instead of writing the next one. A stream with no more events than that ends normally.
   */
  dropAfterEvents?: number | undefined;
  /** Answer 200 with a truncated, invalid JSON body (or a truncated stream event). */
  malformed?: boolean | undefined;
  /** Content type of the response, overriding the operation's own. */
  contentType?: string | undefined;
}

interface ActiveFault {
  rule: FaultRule;
  remaining: number;
}

/** Rules in force at once; a test that needs more is adding them in a loop by mistake. */
const maxActiveFaults = 1000;

/** Fault rules in order of addition; each match consumes one use of the first matching rule. */
export class FaultList {
  private readonly active: ActiveFault[] = [];

  /** `changed` hears of every change: a rule added, one use taken, the list cleared. */
  constructor(private readonly changed: () => void = () => {}) {}

  add(rule: FaultRule): void {
    const checked = checkFaultRule(rule);
    if (this.active.length >= maxActiveFaults) {
      throw new HttpError(400, `At most ${maxActiveFaults} fault rules can be in force; clear some first`);
    }
    this.active.push({ rule: checked, remaining: checked.times ?? 1 });
    this.changed();
  }

  clear(): void {
    const had = this.active.length > 0;
    this.active.length = 0;
    if (had) this.changed();
  }

  /** The rules in force, in order, with the uses each has left. */
  list(): { rule: FaultRule; remaining: number }[] {
    return this.active.map((f) => ({ rule: { ...f.rule }, remaining: f.remaining }));
  }

  get size(): number {
    return this.active.length;
  }

  /** Takes one use of the first rule matching the operation, if any. */
  take(operationId: string): FaultRule | undefined {
    const index = this.active.findIndex((f) => (f.rule.route ?? '*') === '*' || f.rule.route === operationId);
    const fault = this.active[index];
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.active.splice(index, 1);
    this.changed();
    return fault.rule;
  }
}

const ruleKeys = new Set([
  'route',
  'times',
  'latencyMs',
  'status',
  'headers',
  'body',
  'drop',
  'dropAfterEvents',
  'malformed',
  'contentType',
]);

/** Validates a rule from options or the control endpoint; throws a 400 that names the bad field. */
export function checkFaultRule(value: unknown): FaultRule {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'A fault rule must be a JSON object');
  }
  const rule = value as Record<string, unknown>;
  const bad = (field: string, expected: string) =>
    new HttpError(400, `Fault rule field '${field}' must be ${expected}`);
  for (const key of Object.keys(rule)) {
    if (!ruleKeys.has(key)) throw new HttpError(400, `Unknown fault rule field '${key}'`);
  }
  if (rule.route !== undefined && !(typeof rule.route === 'string' && isRoute(rule.route))) {
    throw bad('route', `'*' or one of the operationIds: ${operationIds.join(', ')}`);
  }
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && (rule.times as number) > 0)) {
    throw bad('times', 'a positive integer');
  }
  if (
    rule.latencyMs !== undefined &&
    !(typeof rule.latencyMs === 'number' && rule.latencyMs >= 0 && rule.latencyMs <= 600_000)
  ) {
    throw bad('latencyMs', 'a number of milliseconds from 0 to 600000');
  }
  if (
    rule.status !== undefined &&
    !(Number.isInteger(rule.status) && (rule.status as number) >= 200 && (rule.status as number) <= 599)
  ) {
    throw bad('status', 'an HTTP status from 200 to 599');
  }
  if (rule.headers !== undefined) {
    if (typeof rule.headers !== 'object' || rule.headers === null || Array.isArray(rule.headers)) {
      throw bad('headers', 'an object of strings');
    }
    for (const [name, v] of Object.entries(rule.headers)) {
      if (typeof v !== 'string' || !canCarry(name, v)) {
        // The value is not repeated: it is what could not be written.
        throw bad(
          'headers',
          `an object of header names to values HTTP can carry (header '${printable(name)}' cannot be sent)`,
        );
      }
    }
  }
  if (rule.body !== undefined && typeof rule.body !== 'string') throw bad('body', 'a string');
  if (rule.drop !== undefined && rule.drop !== 'before-headers' && rule.drop !== 'during-body') {
    throw bad('drop', "'before-headers' or 'during-body'");
  }
  if (
    rule.dropAfterEvents !== undefined &&
    !(
      Number.isInteger(rule.dropAfterEvents) &&
      (rule.dropAfterEvents as number) >= 0 &&
      (rule.dropAfterEvents as number) <= 100_000
    )
  ) {
    throw bad('dropAfterEvents', 'an integer from 0 to 100000 (whole stream events sent before the cut)');
  }
  if (rule.malformed !== undefined && typeof rule.malformed !== 'boolean')
    throw bad('malformed', 'a boolean');
  if (
    rule.contentType !== undefined &&
    (typeof rule.contentType !== 'string' || !canCarry('content-type', rule.contentType))
  ) {
    throw bad('contentType', 'a string HTTP can carry in a header (no control or non-Latin-1 characters)');
  }
  return { ...(rule as FaultRule) };
}

function isRoute(value: string): value is OperationId | '*' {
  return value === '*' || isOperationId(value);
}

/** A header name: an RFC 9110 token. */
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value node:http and the Fetch API's Headers both write: tab, visible ASCII and Latin-1, no CR/LF/NUL. */
const headerValue = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Whether this header can be sent: the checks node:http makes when the reply is written. */
export function canCarry(name: string, value: string): boolean {
  return headerName.test(name) && headerValue.test(value);
}

/** A header name fit for an error message: printable ASCII only, and not too long. */
function printable(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '?').slice(0, 64);
}
