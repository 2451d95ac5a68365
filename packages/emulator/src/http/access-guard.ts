import type { Authenticator } from './auth.js';
import { HttpError } from './errors.js';

/** A request as the guard sees it. */
export interface Caller {
  /**
   * Whether the peer is on this machine, judged by its socket's address (a loopback address, or the
   * address it connected to), which a client cannot choose. Code calling `createEmulator().fetch`
   * runs in the emulator's own process, so it counts as this machine.
   */
  local: boolean;
  method: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

/**
 * What a request asks for: the console's page and its files (nothing secret), the console's endpoints
 * (the log, live events, faults, state export, the API proxy, the key) or the control routes
 * (`/_emulator/...`).
 */
export type Surface = 'console-page' | 'console-api' | 'control';

const forbidden = (message: string) => new HttpError(403, message, {}, 'FORBIDDEN');

/**
 * The one rule for who may use the console and the control routes. It is decided by the peer's
 * address, never by what a client writes about itself: `Host`, `Origin` and `Sec-Fetch-Site` are set
 * by any program that wants to.
 *
 * - The control routes ask every caller for a valid credential, as the API does.
 * - The console's endpoints ask a peer elsewhere (another machine, a container's host through Docker's
 *   port mapping) for a valid credential too: its page asks for the key once and sends it. A peer on
 *   this machine uses them without one, as the developer's own browser does.
 * - On top of that, since a page on a hostile site runs in a browser on this machine too, a browser's
 *   own headers must say the request comes from the console's page: its `Host` one of the names the
 *   emulator listens by (a site that rebinds its DNS name to 127.0.0.1 sends its own), its `Origin`
 *   that host, its `Sec-Fetch-Site` same-origin; and a change of state needs the `Origin` header that
 *   browsers always send with such methods.
 */
export class AccessGuard {
  private hosts = new Set<string>();

  constructor(private readonly auth: Authenticator) {}

  /** Learns the address the server listens on, for the `Host` check of a peer on this machine. */
  listening(listenHost: string, port: number): void {
    const names = new Set([listenHost, '127.0.0.1', 'localhost', '[::1]']);
    // An emulator listening on every interface is reached by a loopback name (others are refused).
    names.delete('0.0.0.0');
    names.delete('[::]');
    this.hosts = new Set([...names].map((name) => `${name}:${port}`.toLowerCase()));
  }

  /** Why the request is refused (a 401 or 403 to answer with), or undefined when it may go on. */
  async refusal(caller: Caller, surface: Surface): Promise<HttpError | undefined> {
    const { local, method, headers } = caller;
    if (surface === 'control' || (surface === 'console-api' && !local)) {
      try {
        await this.auth.check(headers.authorization);
      } catch (error) {
        return error as HttpError;
      }
    }
    if (surface === 'control') return undefined;
    const host = headers.host?.toLowerCase();
    if (local && (host === undefined || !this.hosts.has(host))) {
      return forbidden(
        'The console answers only on the address the emulator listens on (the Host header names another)',
      );
    }
    const origin = headers.origin;
    const from = origin?.toLowerCase();
    if (from === 'null' || (from !== undefined && from !== `http://${host}` && from !== `https://${host}`)) {
      return forbidden('The console answers only its own page (Origin)');
    }
    const site = headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      return forbidden('The console answers only its own page (Sec-Fetch-Site)');
    }
    // Without a credential, the peer's address is the authority: a change of state must prove the page's origin.
    if (local && method !== 'GET' && method !== 'HEAD' && origin === undefined) {
      return forbidden('The console needs an Origin header on requests that change something');
    }
    return undefined;
  }
}
