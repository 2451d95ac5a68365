import { HttpError } from './errors.js';

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept at once; the least recently used credential's is forgotten first. */
const maxBuckets = 1000;

/**
 * A token bucket per credential, as services rate-limit per API key: `burst` requests at once, then
 * `perSecond` a second. A refused request learns how long to wait until one token is back.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;

  constructor(
    private readonly perSecond: number,
    burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.burst = Number.isFinite(burst) ? burst : perSecond;
  }

  /** Takes a token for the credential, or throws the 429 that says when to come back. */
  take(credential: string): void {
    if (!Number.isFinite(this.perSecond)) return;
    const now = this.now();
    const bucket = this.buckets.get(credential) ?? { tokens: this.burst, at: now };
    this.buckets.delete(credential);
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) * this.perSecond) / 1000);
    bucket.at = now;
    this.buckets.set(credential, bucket);
    if (this.buckets.size > maxBuckets) this.buckets.delete(this.buckets.keys().next().value as string);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    const waitMs = Math.ceil(((1 - bucket.tokens) * 1000) / this.perSecond);
    throw new HttpError(
      429,
      `Rate limit of ${this.perSecond} requests per second exceeded; retry in ${waitMs} ms`,
      { 'retry-after': String(Math.ceil(waitMs / 1000)), 'retry-after-ms': String(waitMs) },
      'RATE_LIMITED',
    );
  }
}
