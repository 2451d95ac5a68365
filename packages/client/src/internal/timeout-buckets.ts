// How many calls share one bucket's signal. fetch (undici) adds an abort listener per request to the
// signal it is given and, once it has raised the signal's listener limit, counts the listeners on
// every request: sharing among a few dozen keeps that count small.
const CALLS_PER_BUCKET = 32;
// How long a bucket takes new calls, as a share of the time-out, and at most: a call's time-out
// fires up to this much late, never early.
const WINDOW_SHARE = 1 / 64;
const MAX_WINDOW_MS = 1000;

/**
 * One abort signal shared by the calls that started close together with the same time-out. A signal
 * handed to fetch is costly (an AbortController, and inside fetch a listener, a WeakRef and a
 * finalizer per request), so calls without a signal of their own share one per bucket. The bucket
 * aborts once the time-out has passed for the last call it took, and is released as soon as its last
 * call ends.
 */
export class TimeoutBucket {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #owner: TimeoutBuckets;
  readonly timeoutMs: number;
  readonly #closesAt: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #joined = 0;
  #active = 0;

  constructor(owner: TimeoutBuckets, timeoutMs: number, now: number) {
    this.#owner = owner;
    this.timeoutMs = timeoutMs;
    const window = Math.min(MAX_WINDOW_MS, timeoutMs * WINDOW_SHARE);
    this.#closesAt = now + window;
    this.signal = this.#controller.signal;
    // The bucket is passed as an argument: no closure per bucket.
    this.#timer = setTimeout(TimeoutBucket.#expire, timeoutMs + window, this);
    // A pending socket keeps the process alive; the timer alone must not.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  static #expire(bucket: TimeoutBucket): void {
    bucket.#timer = undefined;
    bucket.#owner.forget(bucket.timeoutMs, bucket);
    bucket.#controller.abort(new DOMException('The time-out passed.', 'TimeoutError'));
  }

  /** Whether a call starting at `now` may join. */
  open(now: number): boolean {
    return this.#joined < CALLS_PER_BUCKET && now <= this.#closesAt && this.#timer !== undefined;
  }

  join(): void {
    this.#joined++;
    this.#active++;
  }

  /** A call ended: the last one out of a bucket that takes no more calls stops its timer. */
  leave(): void {
    this.#active--;
    if (this.#active === 0 && (this.#joined >= CALLS_PER_BUCKET || !this.#owner.holds(this))) this.release();
  }

  /** Stops the timer when no call is left in the bucket; the owner no longer hands it out. */
  release(): void {
    if (this.#active !== 0 || this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#owner.forget(this.timeoutMs, this);
  }
}

/** A client's open buckets, one per time-out value in use. */
export class TimeoutBuckets {
  readonly #open = new Map<number, TimeoutBucket>();

  /** The bucket a call with time-out `timeoutMs` starting now joins. */
  join(timeoutMs: number): TimeoutBucket {
    const now = performance.now();
    let bucket = this.#open.get(timeoutMs);
    if (bucket === undefined || !bucket.open(now)) {
      // A bucket that takes no more calls and has none left goes now rather than at its time-out.
      bucket?.release();
      bucket = new TimeoutBucket(this, timeoutMs, now);
      this.#open.set(timeoutMs, bucket);
    }
    bucket.join();
    return bucket;
  }

  /** Whether `bucket` is still the one new calls join. */
  holds(bucket: TimeoutBucket): boolean {
    return this.#open.get(bucket.timeoutMs) === bucket;
  }

  forget(timeoutMs: number, bucket: TimeoutBucket): void {
    if (this.#open.get(timeoutMs) === bucket) this.#open.delete(timeoutMs);
  }
}
