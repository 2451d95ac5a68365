import { REDACTED as redacted } from '@dataworkz/redaction';
import type { CassetteEntry } from './har.js';

/** A request as replay compares it: method, path, query pairs and body. */
export interface RequestKey {
  method: string;
  path: string;
  query: [string, string][];
  body: string;
}

/**
 * JSON members that differ on every call by design: the JSON-RPC `id` and the A2A `messageId` a
 * client makes up for each message. Ignored unless the caller lists its own.
 */
export const defaultIgnored = ['id', 'params.message.messageId'];

/** Where a request differs from a recorded one, in words (empty when they match). */
type Differences = string[];

/**
 * Finds the recorded exchange for a request. Requests match on method, path, query (in any order)
 * and body (as JSON when both are JSON), skipping the ignored names: query parameters, and JSON
 * members by dotted path. Equal requests recorded several times replay in their recorded order, the
 * last one again once all were used.
 */
export class CassetteMatcher {
  private readonly keys: RequestKey[];
  private readonly used = new Set<number>();

  constructor(
    private readonly entries: readonly CassetteEntry[],
    private readonly ignored: readonly string[] = defaultIgnored,
  ) {
    this.keys = entries.map(keyOfEntry);
  }

  /** The matching entry, or undefined and the closest one with how it differs. */
  find(
    request: RequestKey,
  ):
    | { entry: CassetteEntry }
    | { entry: undefined; closest?: { entry: CassetteEntry; differences: Differences } } {
    let last: number | undefined;
    let closest: { index: number; differences: Differences; score: number } | undefined;
    for (let i = 0; i < this.keys.length; i++) {
      const differences = this.compare(request, this.keys[i] as RequestKey);
      if (differences.length === 0) {
        if (!this.used.has(i)) {
          this.used.add(i);
          return { entry: this.entries[i] as CassetteEntry };
        }
        last = i;
        continue;
      }
      const score = scoreOf(differences);
      if (!closest || score < closest.score) closest = { index: i, differences, score };
    }
    if (last !== undefined) return { entry: this.entries[last] as CassetteEntry };
    return closest
      ? {
          entry: undefined,
          closest: { entry: this.entries[closest.index] as CassetteEntry, differences: closest.differences },
        }
      : { entry: undefined };
  }

  /** `a` is the request, `b` the recorded one. */
  private compare(a: RequestKey, b: RequestKey): Differences {
    const out: Differences = [];
    if (a.method.toUpperCase() !== b.method.toUpperCase()) out.push('method');
    if (a.path !== b.path) out.push('path');
    const names = new Set([...a.query, ...b.query].map(([name]) => name));
    for (const name of names) {
      if (this.ignored.includes(name)) continue;
      const left = a.query.filter(([n]) => n === name).map(([, v]) => v);
      const right = b.query.filter(([n]) => n === name).map(([, v]) => v);
      // A credential was redacted on recording: any value the caller presents now stands for it.
      const same = left.length === right.length && left.every((v, i) => sameRedacted(v, right[i] ?? ''));
      if (!same) out.push(`query ${name}`);
    }
    const body = bodyDifference(a.body, b.body, this.ignored);
    if (body !== undefined) out.push(body === '' ? 'body' : `body at ${body}`);
    return out;
  }
}

/** Method and path weigh most, so the closest request is the same operation where there is one. */
function scoreOf(differences: Differences): number {
  return differences.reduce((sum, d) => sum + (d === 'method' ? 100 : d === 'path' ? 50 : 1), 0);
}

function keyOfEntry(entry: CassetteEntry): RequestKey {
  const url = entry.request.url;
  const start = url.indexOf('://') < 0 ? 0 : url.indexOf('/', url.indexOf('://') + 3);
  const target = start < 0 ? '/' : url.slice(start);
  return keyOf(entry.request.method, target, entry.request.postData?.text ?? '');
}

/** The key of a request target (`/path?query`) and body. */
export function keyOf(method: string, target: string, body: string): RequestKey {
  const at = target.indexOf('?');
  const path = at < 0 ? target : target.slice(0, at);
  return { method, path, query: at < 0 ? [] : queryPairs(target.slice(at + 1)), body };
}

function queryPairs(query: string): [string, string][] {
  if (query === '') return [];
  return query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return [decode(eq < 0 ? pair : pair.slice(0, eq)), decode(eq < 0 ? '' : pair.slice(eq + 1))];
  });
}

/** Percent-decoding with `+` as a space; text that does not decode is compared as sent. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/**
 * Where two bodies differ: undefined when they match, '' when they differ as a whole (not JSON, or
 * different at the top), else the first JSON path that differs (`params.message.parts[0].text`).
 */
function bodyDifference(a: string, b: string, ignored: readonly string[]): string | undefined {
  if (a === b) return undefined;
  const left = parseJson(a);
  const right = parseJson(b);
  if (left === undefined || right === undefined) return a.trim() === b.trim() ? undefined : '';
  return jsonDifference(left, right, '', '', ignored);
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Whether a value the caller sends is the recorded one, where each `[redacted]` in the recorded one
 * stands for any text (a credential replaced inside a longer value: `SSWS [redacted]`).
 */
function sameRedacted(sent: string, recorded: string): boolean {
  if (sent === recorded) return true;
  if (!recorded.includes(redacted)) return false;
  const parts = recorded.split(redacted);
  const first = parts[0] ?? '';
  const last = parts.at(-1) ?? '';
  if (!sent.startsWith(first) || !sent.endsWith(last)) return false;
  // Each middle part at its first place after the one before, each `[redacted]` standing for 1 or more
  // characters: a linear scan, whatever a hostile cassette holds (no pattern to backtrack).
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = sent.indexOf(part, at + 1);
    if (found < 0) return false;
    at = found + part.length;
  }
  return sent.length - last.length >= at + 1;
}

/**
 * The first path where `a` and `b` differ, or undefined. `at` is the dotted path the ignored names
 * use (array items share their array's); `shown` the same path with each item's index.
 */
function jsonDifference(
  a: unknown,
  b: unknown,
  at: string,
  shown: string,
  ignored: readonly string[],
): string | undefined {
  if (ignored.includes(at)) return undefined;
  // A secret-named member was redacted whole on recording: any value the caller sends now stands for it.
  if (b === redacted && a !== undefined && a !== null) return undefined;
  if (typeof a === 'string' && typeof b === 'string') return sameRedacted(a, b) ? undefined : shown;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return shown;
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      // An item only one side has differs at its index.
      if (i >= a.length || i >= b.length) return `${shown}[${i}]`;
      const found = jsonDifference(a[i], b[i], at, `${shown}[${i}]`, ignored);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const names = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const name of names) {
      const found = jsonDifference(
        (a as Record<string, unknown>)[name],
        (b as Record<string, unknown>)[name],
        at === '' ? name : `${at}.${name}`,
        shown === '' ? name : `${shown}.${name}`,
        ignored,
      );
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return a === b ? undefined : shown;
}
