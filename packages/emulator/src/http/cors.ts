/** The browser origins the emulator answers. */
export interface CorsOptions {
  /** Allowed origins, or `*` for any. */
  origins: string[] | '*';
}

const exposed = 'retry-after, retry-after-ms, x-should-retry, x-request-id, content-type, etag';
const allowedHeaders =
  'authorization, content-type, accept, x-a2a-extensions, a2a-extensions, a2a-version, if-none-match, x-request-id';

/** CORS response headers for a request's `Origin`; none when CORS is off or the origin is not allowed. */
export function corsHeaders(
  options: CorsOptions | undefined,
  method: string,
  origin: string | undefined,
): Record<string, string> {
  if (!options || typeof origin !== 'string') return {};
  const allowed = options.origins === '*' || options.origins.includes(origin);
  if (!allowed) return {};
  const headers: Record<string, string> = {
    'access-control-allow-origin': options.origins === '*' ? '*' : origin,
    'access-control-expose-headers': exposed,
  };
  if (options.origins !== '*') headers.vary = 'Origin';
  if (method === 'OPTIONS') {
    headers['access-control-allow-methods'] = 'GET, POST, DELETE, OPTIONS';
    headers['access-control-allow-headers'] = allowedHeaders;
    headers['access-control-max-age'] = '600';
  }
  return headers;
}
