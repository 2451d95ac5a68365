import { type Call, type CallTarget, callers } from './callers.js';

/** One response as the emulator sent it: what the in-process fetch replays. */
export interface RecordedResponse {
  readonly status: number;
  readonly headers: readonly [string, string][];
  readonly body: ArrayBuffer;
}

const route = '/api/qna/v1/systems';
// Connection-level headers belong to the socket the recording came over, not to a replay.
const connectionHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/** The list-QnA-systems response of the emulator at `target`, read whole over the real network. */
export async function recordResponse(target: CallTarget): Promise<RecordedResponse> {
  const response = await fetch(`${target.url}${route}`, {
    headers: { authorization: `SSWS ${target.apiKey}` },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${route} while recording`);
  const headers = [...response.headers].filter(([name]) => !connectionHeaders.has(name));
  return { status: response.status, headers, body: await response.arrayBuffer() };
}

/**
 * A `fetch` that answers at once with the recorded response, so a call costs only what the caller
 * does around fetch. Responses are built ahead (`prepare`), outside the timed code, one per call:
 * a Response body can be read once. `check` makes each call verify the route and credential first
 * (for warm-up calls: proof that every subject sends the same request).
 */
export class ReplayingFetch {
  readonly #recorded: RecordedResponse;
  readonly #authorization: string;
  #ready: Response[] = [];
  #next = 0;
  check = false;

  constructor(recorded: RecordedResponse, target: CallTarget) {
    this.#recorded = recorded;
    this.#authorization = `SSWS ${target.apiKey}`;
  }

  /** Builds `count` responses for the next `count` calls. */
  prepare(count: number): void {
    const { status, headers, body } = this.#recorded;
    this.#ready = Array.from(
      { length: count },
      () =>
        new Response(body, {
          status,
          headers: headers.map(([name, value]): [string, string] => [name, value]),
        }),
    );
    this.#next = 0;
  }

  readonly fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (this.check) this.#verify(input, init);
    const response = this.#ready[this.#next];
    if (response === undefined) throw new Error('more calls than responses prepared');
    this.#ready[this.#next++] = undefined as unknown as Response;
    return Promise.resolve(response);
  };

  #verify(input: string | URL | Request, init: RequestInit | undefined): void {
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    if (pathname !== route) throw new Error(`unexpected request to ${pathname}`);
    if (request.headers.get('authorization') !== this.#authorization) {
      throw new Error(`request to ${pathname} without the expected authorization`);
    }
  }
}

/**
 * Runs `use` with the call subjects and the global fetch replaced by one replaying the emulator's
 * answer (before any subject is created: openapi-fetch takes the global fetch when its client is
 * created, the others look it up per call); the real fetch is put back afterwards.
 */
export async function withReplayingCallers<T>(
  target: CallTarget,
  use: (replay: ReplayingFetch, subjects: Map<string, Call>) => Promise<T>,
): Promise<T> {
  const replay = new ReplayingFetch(await recordResponse(target), target);
  const realFetch = globalThis.fetch;
  globalThis.fetch = replay.fetch as typeof fetch;
  try {
    return await use(replay, callers(target));
  } finally {
    globalThis.fetch = realFetch;
  }
}
