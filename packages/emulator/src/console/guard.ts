/**
 * Whether a request may use the console: its `Host` must name the emulator as it listens (or a
 * loopback name for it), and a browser's `Origin` and `Sec-Fetch-Site` must say the page came from
 * there. This stops a page on another site, including one that rebinds its DNS name to this
 * address, from reading the log or acting with the emulator's key.
 */
export class ConsoleGuard {
  private readonly hosts: Set<string>;

  constructor(listenHost: string, port: number) {
    const names = new Set([listenHost, '127.0.0.1', 'localhost', '[::1]']);
    // An emulator listening on every interface is reached by a loopback name (others are refused).
    names.delete('0.0.0.0');
    names.delete('[::]');
    this.hosts = new Set([...names].map((name) => `${name}:${port}`.toLowerCase()));
  }

  /** A reason to refuse the request, or undefined when it may go on. */
  refusal(method: string, headers: Record<string, string>): string | undefined {
    const host = headers.host?.toLowerCase();
    if (host === undefined || !this.hosts.has(host)) {
      return 'The console answers only on the address the emulator listens on (the Host header names another)';
    }
    const origin = headers.origin;
    if (origin !== undefined && origin !== 'null') {
      if (origin.toLowerCase() !== `http://${host}`) return 'The console answers only its own page (Origin)';
    } else if (origin === 'null') {
      return 'The console answers only its own page (Origin)';
    }
    const site = headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      return 'The console answers only its own page (Sec-Fetch-Site)';
    }
    // A change of state needs proof of the page's origin, which browsers always send with these methods.
    if (method !== 'GET' && method !== 'HEAD' && origin === undefined) {
      return 'The console needs an Origin header on requests that change something';
    }
    return undefined;
  }
}
