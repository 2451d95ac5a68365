/**
 * How many requests a batch keeps in flight: additive increase, multiplicative decrease (AIMD), as TCP
 * does. The service pushing back (a 429) halves the limit, at most once per `windowMs`, and pauses new
 * requests for the wait it asked for; each window without push-back raises the limit by one, up to the
 * `--concurrency` asked for.
 */
export class AdaptiveLimit {
  private current: number;
  private lastDecrease = Number.NEGATIVE_INFINITY;
  private lastIncrease: number;
  private resumeAt = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.current = max;
    this.lastIncrease = now();
  }

  get value(): number {
    return this.current;
  }

  /** The service refused for now and asked to wait `waitMs`. */
  pushedBack(waitMs: number): void {
    const now = this.now();
    this.resumeAt = Math.max(this.resumeAt, now + waitMs);
    if (now - this.lastDecrease >= this.windowMs) {
      this.current = Math.max(1, Math.floor(this.current / 2));
      this.lastDecrease = now;
      this.lastIncrease = now;
    }
  }

  /** A request succeeded. */
  succeeded(): void {
    const now = this.now();
    if (
      this.current < this.max &&
      now - this.lastIncrease >= this.windowMs &&
      now - this.lastDecrease >= this.windowMs
    ) {
      this.current += 1;
      this.lastIncrease = now;
    }
  }

  /** Milliseconds before a new request may start (0: now). */
  pauseMs(): number {
    return Math.max(0, this.resumeAt - this.now());
  }
}
