import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request is refused, as an HTTP status and a message; undefined when it may pass. */
export interface Refusal {
  status: 401 | 403;
  message: string;
}

export interface GuardOptions {
  /** The bearer token every request must carry. */
  token: string;
  /** Browser origins allowed to call; a request with any other `Origin` is refused. */
  allowedOrigins: readonly string[];
  /** Host names the `Host` header may name (DNS-rebinding protection); any when undefined. */
  allowedHosts: readonly string[] | undefined;
}

// Compared as digests, so the comparison takes the same time whatever the length of the guess.
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function hostName(host: string): string {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return '';
  }
}

/**
 * Checks a request before MCP sees it. A web page can make a browser send requests to a local
 * server (and a rebound DNS name can make them same-origin), so a foreign `Origin` or `Host` is
 * refused; and every request needs the server's own token, never the Dataworkz credential.
 */
export function refusalOf(request: IncomingMessage, options: GuardOptions): Refusal | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined && !options.allowedOrigins.includes(origin)) {
    return { status: 403, message: `Origin ${origin} is not allowed.` };
  }
  if (options.allowedHosts !== undefined) {
    const host = hostName(request.headers.host ?? '');
    if (!options.allowedHosts.includes(host)) return { status: 403, message: 'Host is not allowed.' };
  }
  const authorization = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1] || !sameSecret(match[1], options.token)) {
    return { status: 401, message: 'A valid bearer token is required.' };
  }
  return undefined;
}
