import type { Cassette } from './cassette/har.js';
import { type EmulatorControls, withControls } from './controls.js';
import { toResponse } from './http/answer.js';
import { readStreamBody } from './http/body.js';
import type { EmulatorOptions } from './options.js';
import { createService } from './service.js';
import { settle } from './settings.js';

/**
 * Options of the in-process emulator: those of `startEmulator` except the listening ones, `console`
 * (served on the address), and those that read or write files (`data`, recording, state export and
 * import); `replay` takes a cassette object (a HAR file parsed, e.g. a test fixture).
 */
export type InProcessOptions = Omit<
  EmulatorOptions,
  | 'port'
  | 'host'
  | 'data'
  | 'console'
  | 'record'
  | 'cassette'
  | 'driftReport'
  | 'recordUnreadableBodies'
  | 'exportOnExit'
  | 'import'
  | 'replay'
> & { replay?: Cassette | undefined };

/** The emulator without a server: requests go to `fetch`, in any runtime with the Fetch API. */
export interface InProcessEmulator extends EmulatorControls {
  /**
   * Answers a request as the service would, with the signature of the global `fetch`: pass it as a
   * client's `fetch` option. Any origin works (`https://dw.example`); links in answers use it. The
   * input is `RequestInfo | URL` spelled out, so a Node project without the DOM lib compiles it.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Settles once the emulator's state is built; `fetch` waits for it on its own. */
  readonly ready: Promise<void>;
  /** Ends every open stream; `fetch` fails from then on, as a stopped server's connections do. */
  close(): Promise<void>;
}

/**
 * Creates the emulator in this process, with no port: no node: module is involved, so it runs in
 * Node, Bun, Deno, edge runtimes and browsers alike.
 */
export function createEmulator(options: InProcessOptions = {}): InProcessEmulator {
  const settings = settle(options);
  for (const name of [
    'data',
    'record',
    'cassette',
    'driftReport',
    'recordUnreadableBodies',
    'exportOnExit',
    'import',
  ] as const) {
    if ((options as EmulatorOptions)[name] !== undefined) {
      throw new TypeError(
        `Option ${name} reads or writes files: it is an option of startEmulator, not of createEmulator`,
      );
    }
  }
  if (typeof (options as EmulatorOptions).replay === 'string') {
    throw new TypeError('Option replay of createEmulator takes a cassette object (the HAR file, parsed)');
  }
  const service = createService(settings);
  let closed = false;

  async function fetchHandler(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    await service.ready;
    if (closed) throw new TypeError('fetch failed: the emulator is closed');
    // The caller's own signal where there is one: a Request's copy follows it through a weak reference
    // to the copy's controller (undici), one more link for an abort to cross while a fault's latency
    // holds the answer.
    const signal = init?.signal ?? (input instanceof Request ? input.signal : request.signal);
    signal.throwIfAborted();
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const response = service.respond({
      method: request.method,
      target: `${url.pathname}${url.search}`,
      headers,
      origin: url.origin,
      // No socket: the caller is code in this process, on this machine by definition.
      local: true,
      readBody: (limit) => readStreamBody(request.body, limit),
      onGone: (listener) => {
        if (signal.aborted) listener();
        else signal.addEventListener('abort', listener, { once: true });
      },
    });
    // As with fetch, an abort before the response arrives rejects with the signal's reason.
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      response
        .then((answer) => resolve(toResponse(answer)), reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  return withControls(service, {
    fetch: fetchHandler,
    ready: service.ready,
    close: async () => {
      closed = true;
      await service.closeAll();
    },
  });
}
