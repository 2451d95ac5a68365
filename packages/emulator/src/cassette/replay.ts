import type { Answer } from '../http/answer.js';
import { errorBody } from '../http/errors.js';
import { utf8 } from '../neutral/bytes.js';
import { sleep } from '../neutral/timers.js';
import { type Cassette, type CassetteEntry, type CassetteEvent, checkCassette, headerRecord } from './har.js';
import { CassetteMatcher, defaultIgnored, keyOf } from './match.js';

export interface ReplayOptions {
  /** How fast to replay a recording's pauses: 1 (the default) as recorded, 2 twice as fast, 0 without any. */
  speed?: number | undefined;
  /** Query parameters and dotted JSON body members that may differ; default `['id', 'params.message.messageId']`. */
  ignore?: readonly string[] | undefined;
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

/** Serves a cassette: each request gets the recorded response, a stream its events at their pace. */
export class Replayer {
  private readonly matcher: CassetteMatcher;
  private readonly speed: number;

  constructor(cassette: Cassette, options: ReplayOptions = {}) {
    checkCassette(cassette);
    const speed = options.speed ?? 1;
    if (!(typeof speed === 'number' && speed >= 0 && Number.isFinite(speed))) {
      throw new TypeError('Option replaySpeed must be a non-negative number (0: no pauses)');
    }
    this.speed = speed;
    this.matcher = new CassetteMatcher(cassette.log.entries, options.ignore ?? defaultIgnored);
  }

  replay(method: string, target: string, body: string, onGone: (listener: () => void) => void): Replayed {
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
    const headers: Record<string, string> = {};
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

  /** The recorded events, each after its recorded delay (scaled by the speed). */
  private eventStream(events: readonly CassetteEvent[], onGone: (listener: () => void) => void) {
    const speed = this.speed;
    let gone = false;
    onGone(() => {
      gone = true;
    });
    let index = 0;
    let previous = 0;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const event = events[index];
        if (event === undefined || gone) {
          controller.close();
          return;
        }
        index += 1;
        const pause = speed === 0 ? 0 : Math.max(0, event.time - previous) / speed;
        previous = event.time;
        if (pause > 0) await sleep(pause);
        controller.enqueue(utf8(frameOf(event)));
      },
      cancel() {
        gone = true;
      },
    });
  }
}

/** One event as SSE text: its `event` and `id` fields, and each line of its data. */
function frameOf(event: CassetteEvent): string {
  let frame = '';
  if (event.event !== undefined) frame += `event: ${event.event}\n`;
  if (event.id !== undefined) frame += `id: ${event.id}\n`;
  for (const line of event.data.split('\n')) frame += `data: ${line}\n`;
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
