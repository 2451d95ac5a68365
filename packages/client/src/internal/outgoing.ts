/**
 * A request about to be sent. openapi-fetch builds one per call through its `Request` option: the
 * platform Request would be built twice per call (here and again inside fetch), which costs time.
 */
export class Outgoing {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  // RequestInit's own member type: `BodyInit` is a DOM-only name that @types/node does not declare.
  readonly body: NonNullable<RequestInit['body']> | null;
  readonly signal: AbortSignal | null;

  constructor(input: string | URL, init: RequestInit = {}) {
    this.url = String(input);
    this.method = init.method ?? 'GET';
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body ?? null;
    this.signal = init.signal ?? null;
  }

  /** The same request from a platform Request (e.g. one a middleware returned); reads its body. */
  static async from(request: Request): Promise<Outgoing> {
    const body = request.body === null ? null : await request.arrayBuffer();
    return new Outgoing(request.url, {
      method: request.method,
      headers: request.headers,
      body,
      signal: request.signal,
    });
  }
}
