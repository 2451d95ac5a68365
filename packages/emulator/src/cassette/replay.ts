import type { Answer } from '../http/answer.js';
import { errorBody } from '../http/errors.js';
import { checkJsonDepth } from '../http/json-body.js';
import { StreamSlots } from '../http/stream-slots.js';
import { defaultLimits, type Limits } from '../limits.js';
import { utf8 } from '../neutral/bytes.js';
import { unref } from '../neutral/timers.js';
import { checkCassette } from './check.js';
import { type Cassette, type CassetteEntry, type CassetteEvent, headerRecord } from './har.js';
import { CassetteMatcher, defaultIgnored, keyOf } from './match.js';

/** The emulator's limits replay keeps, as the live API does. */
export type ReplayLimits = Pick<Limits, 'maxConcurrentStreams' | 'streamTimeoutMs' | 'maxJsonDepth'>;

export interface ReplayOptions {
  /** How fast to replay a recording's pauses: 1 (the default) as recorded, 2 twice as fast, 0 without any. */
  speed?: number | undefined;
  /** Query parameters and dotted JSON body members that may differ; default `['id', 'params.message.messageId']`. */
  ignore?: readonly string[] | undefined;
  /** Open streams at once (429 past it), a stream's longest life, a request body's deepest nesting. */
  limits?: ReplayLimits | undefined;
  /** The emulator's open-stream slots, which emulated streams share; by default the replayer's own. */
  slots?: StreamSlots | undefined;
}

/** Headers that described the recorded transfer, not this one. */
const transferHeaders = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'content-encoding',
]);

/** What replay answers: a recorded answer, or the closest recorded request when none matches. */
export type Replayed =
  | { answer: Answer }
  | { answer: undefined; miss: { status: number; body: Record<string, unknown> } };

/**
 * Serves a cassette: each request gets the recorded response, a stream its events at their pace.
 * It keeps the limits the live API keeps, whatever the cassette holds: streams open at once, a
 * stream's time-out (a recorded pause longer than it is cut to it) and the nesting of a request body.
 */
export class Replayer {
  private readonly matcher: CassetteMatcher;
  private readonly speed: number;
  private readonly limits: ReplayLimits;
  private readonly slots: StreamSlots;

  constructor(cassette: Cassette, options: ReplayOptions = {}) {
    this.limits = options.limits ?? defaultLimits;
    this.slots = options.slots ?? new StreamSlots(this.limits.maxConcurrentStreams);
    checkCassette(cassette, 'the cassette', this.limits.maxJsonDepth);
    const speed = options.speed ?? 1;
    if (!(typeof speed === 'number' && speed >= 0 && Number.isFinite(speed))) {
      throw new TypeError('Option replaySpeed must be a non-negative number (0: no pauses)');
    }
    this.speed = speed;
    this.matcher = new CassetteMatcher(cassette.log.entries, options.ignore ?? defaultIgnored);
  }

  replay(method: string, target: string, body: string, onGone: (listener: () => void) => void): Replayed {
    // Refused as the live API refuses it, before matching walks it.
    checkJsonDepth(body, this.limits.maxJsonDepth);
    const key = keyOf(method, target, body);
    const found = this.matcher.find(key);
    if (found.entry) return { answer: this.answerOf(found.entry, onGone) };
    const closest = found.closest;
    const named = closest
      ? ` The closest recorded request is ${closest.entry.request.method} ${pathOf(closest.entry.request.url)} (it differs in ${closest.differences.join(', ')}).`
      : ' The cassette has no requests.';
    const message = `The cassette has no recorded response for ${method} ${key.path}.${named}`;
    return {
      answer: undefined,
      miss: { status: 404, body: errorBody(404, message, key.path, 'NOT_RECORDED') },
    };
  }

  private answerOf(entry: CassetteEntry, onGone: (listener: () => void) => void): Answer {
    const { response } = entry;
    const headers: Record<string, string> = Object.create(null);
    for (const [name, value] of Object.entries(headerRecord(response.headers))) {
      if (!transferHeaders.has(name)) headers[name] = value;
    }
    if (entry._events) {
      return { status: response.status, headers, body: this.eventStream(entry._events, onGone) };
    }
    const { text = '', encoding } = response.content;
    const body = encoding === 'base64' ? fromBase64(text) : text;
    return { status: response.status, headers, body };
  }

  /**
   * The recorded events, each after its recorded delay (scaled by the speed), counted among the open
   * streams until the stream ends, the client leaves or `streamTimeoutMs` passes, whichever is first.
   */
  private eventStream(events: readonly CassetteEvent[], onGone: (listener: () => void) => void) {
    // Taken in the same turn as the request's match: a burst cannot pass the check before it counts.
    const release = this.slots.reserve();
    const { speed } = this;
    const timeoutMs = this.limits.streamTimeoutMs;
    let ended = false;
    let wake = () => {};
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(deadline);
      release();
      wake();
    };
    const deadline = setTimeout(end, timeoutMs);
    unref(deadline);
    onGone(end);
    let index = 0;
    let previous = 0;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const event = events[index];
        if (event === undefined || ended) {
          end();
          controller.close();
          return;
        }
        index += 1;
        // A pause longer than the stream may live is cut to it: the deadline ends the stream first.
        const pause = speed === 0 ? 0 : Math.min(Math.max(0, event.time - previous) / speed, timeoutMs);
        previous = event.time;
        if (pause > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pause);
            unref(timer);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        if (ended) {
          controller.close();
          return;
        }
        controller.enqueue(utf8(frameOf(event)));
      },
      cancel() {
        end();
      },
    });
  }
}

/** One event as SSE text: its `event` and `id` fields, and each line of its data. */
function frameOf(event: CassetteEvent): string {
  let frame = '';
  if (event.event !== undefined) frame += `event: ${event.event}\n`;
  if (event.id !== undefined) frame += `id: ${event.id}\n`;
  // Every line break SSE knows ends a line: a bare CR in the data must not start a field of its own.
  for (const line of event.data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

function pathOf(url: string): string {
  const start = url.indexOf('://') < 0 ? 0 : url.indexOf('/', url.indexOf('://') + 3);
  const target = start < 0 ? '/' : url.slice(start);
  return target.split('?')[0] ?? target;
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
