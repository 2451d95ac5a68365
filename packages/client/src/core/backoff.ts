/** Delays between attempts. */
export interface BackoffOptions {
  /** Delay before the first retry, in ms (default 500); doubled for each further retry. */
  initialDelayMs?: number | undefined;
  /** Upper bound of the computed delay, in ms (default 8000). */
  maxDelayMs?: number | undefined;
}

const DEFAULT_INITIAL_DELAY_MS = 500;
const DEFAULT_MAX_DELAY_MS = 8000;
// A server-suggested wait beyond this is not "sane" and falls back to the computed backoff.
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The exponential backoff before retry number `retry` (0 for the first retry):
 * `min(initial * 2^retry, max)`, minus up to 25 % jitter (`random` in [0, 1)).
 */
export function backoffDelay(
  retry: number,
  options: BackoffOptions = {},
  random: number = Math.random(),
): number {
  const initial = options.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
  const max = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const base = Math.min(initial * 2 ** retry, max);
  return base * (1 - random * 0.25);
}

/**
 * The wait a response asks for, in ms: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP
 * date. Undefined when absent, unparseable, or outside 0..60 s.
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null) {
    const value = Number.parseFloat(ms);
    if (isSane(value)) return value;
  }
  const after = headers.get('retry-after');
  if (after !== null) {
    const trimmed = after.trim();
    const seconds = /^\d+(\.\d+)?$/.test(trimmed)
      ? Number.parseFloat(trimmed) * 1000
      : Date.parse(trimmed) - now;
    if (isSane(seconds)) return Math.max(0, seconds);
    // A date slightly in the past means "now".
    if (!Number.isNaN(seconds) && seconds < 0 && seconds > -MAX_RETRY_AFTER_MS) return 0;
  }
  return undefined;
}

/** The wait before retry number `retry`: the server's request when sane, else the backoff. */
export function retryDelay(retry: number, headers: Headers | undefined, options?: BackoffOptions): number {
  return retryAfterMs(headers) ?? backoffDelay(retry, options);
}

function isSane(ms: number): boolean {
  return Number.isFinite(ms) && ms >= 0 && ms <= MAX_RETRY_AFTER_MS;
}
