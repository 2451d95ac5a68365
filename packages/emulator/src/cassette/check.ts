import { canCarry } from '../http/faults.js';
import { nestsDeeperThan } from '../http/json-body.js';
import { defaultLimits } from '../limits.js';
import { type Cassette, CassetteError } from './har.js';

/** An HTTP method: an RFC 9110 token. */
const method = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Base64 text as HAR keeps a binary body. */
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Checks that `value` is a HAR log whose entries replay can serve, entry by entry: what a request is
 * matched on, and a response HTTP can carry (a final status, headers node:http writes, a body as text
 * or base64, events with fields that cannot open another). Throws CassetteError naming the entry and
 * the field; it never quotes a value, which may be anything a hand-edited file holds.
 */
export function checkCassette(
  value: unknown,
  source = 'the cassette',
  maxJsonDepth = defaultLimits.maxJsonDepth,
): Cassette {
  const log = (value as { log?: unknown } | null)?.log as { entries?: unknown } | undefined;
  if (typeof log !== 'object' || log === null || !Array.isArray(log.entries)) {
    throw new CassetteError(`${source} is not a HAR file: it needs log.entries`);
  }
  log.entries.forEach((entry: unknown, index) => {
    const problem = entryProblem(entry, maxJsonDepth);
    if (problem !== undefined) throw new CassetteError(`${source}: entry ${index} ${problem}`);
  });
  return value as Cassette;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with one entry, in words, or undefined. */
function entryProblem(entry: unknown, maxJsonDepth: number): string | undefined {
  if (!isObject(entry)) return 'is not an object';
  const { request, response } = entry;
  if (!isObject(request)) return 'needs request';
  if (typeof request.method !== 'string' || !method.test(request.method)) {
    return 'needs request.method, an HTTP method';
  }
  if (typeof request.url !== 'string') return 'needs request.url, a string';
  if (request.headers !== undefined && pairsProblem(request.headers, false)) {
    return 'has request.headers that are not a list of names and string values';
  }
  if (request.postData !== undefined) {
    if (!isObject(request.postData)) return 'has a request.postData that is not an object';
    const { text } = request.postData;
    if (text !== undefined && typeof text !== 'string')
      return 'has a request.postData.text that is not a string';
    // Matching walks the recorded body as JSON: held to the nesting the live API allows.
    if (typeof text === 'string' && nestsDeeperThan(text, maxJsonDepth)) {
      return `has a request.postData.text nested deeper than ${maxJsonDepth} levels`;
    }
  }
  if (!isObject(response)) return 'needs response';
  const { status, content, headers } = response;
  // A final status: a 1xx (101 Switching Protocols) would leave the caller waiting for another.
  if (!(Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599)) {
    return 'needs response.status, an HTTP status from 200 to 599';
  }
  if (!Array.isArray(headers) || pairsProblem(headers, true)) {
    return 'needs response.headers, a list of names and values HTTP can carry';
  }
  if (!isObject(content)) return 'needs response.content, an object';
  const events = entry._events;
  if (events !== undefined) return eventsProblem(events);
  // A body the recording kept no bytes of (its size and hash only) has no text: it replays empty.
  if (content.text !== undefined && typeof content.text !== 'string') {
    return 'has a response.content.text that is not a string';
  }
  if (content.encoding !== undefined) {
    if (content.encoding !== 'base64') return "has a response.content.encoding other than 'base64'";
    if (typeof content.text !== 'string' || !base64.test(content.text)) {
      return 'has a response.content.text that is not base64';
    }
  }
  return undefined;
}

/** Whether a HAR name/value list is malformed; `sent` ones must also be headers HTTP can write. */
function pairsProblem(pairs: unknown, sent: boolean): boolean {
  if (!Array.isArray(pairs)) return true;
  return pairs.some(
    (pair: unknown) =>
      !isObject(pair) ||
      typeof pair.name !== 'string' ||
      typeof pair.value !== 'string' ||
      (sent && !canCarry(pair.name, pair.value)),
  );
}

function eventsProblem(events: unknown): string | undefined {
  if (!Array.isArray(events)) return 'has _events that are not a list';
  for (const [k, event] of events.entries()) {
    if (!isObject(event)) return `has _events[${k}] that is not an object`;
    if (!(typeof event.time === 'number' && Number.isFinite(event.time) && event.time >= 0)) {
      return `needs _events[${k}].time, milliseconds from 0`;
    }
    if (typeof event.data !== 'string') return `needs _events[${k}].data, a string`;
    // A line break in these would start another field, or another event, of the replayed stream.
    for (const field of ['event', 'id'] as const) {
      const v = event[field];
      if (v !== undefined && (typeof v !== 'string' || /[\r\n]/.test(v))) {
        return `has an _events[${k}].${field} that is not a one-line string`;
      }
    }
  }
  return undefined;
}
