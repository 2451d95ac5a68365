import type { CassetteEntry } from '../../cassette/har.js';
import type { DriftReport } from '../../drift-report.js';

/** What the queue runs: the drift check of record/drift.ts, loaded only to record. */
interface Checker {
  check(entry: CassetteEntry, path: string): void;
  report(): DriftReport;
}

/** How long the traffic may pause before the queued checks run anyway. */
const idleMs = 10;

/**
 * The drift checks of a recording, run off the path of the calls being forwarded: queued as the
 * exchanges are recorded, and run while the recorder waits on the deployment (it has just sent a
 * request on), after a pause in the traffic, or at once when the report is read, so a report always
 * covers every exchange recorded. A check keeps nothing on disk: it can wait where the cassette cannot.
 */
export class DriftQueue {
  private pending: { entry: CassetteEntry; path: string }[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private soon = false;

  constructor(
    private readonly checker: Checker,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Queues the check of a recorded exchange; `path` as the caller sent it (`/api/...`). */
  add(entry: CassetteEntry, path: string): void {
    this.pending.push({ entry, path });
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.drain(), idleMs);
      this.timer.unref?.();
    }
  }

  /** The recorder has sent a request on and waits for its answer: the queued checks run meanwhile. */
  waiting(): void {
    if (this.pending.length === 0 || this.soon) return;
    this.soon = true;
    setImmediate(() => {
      this.soon = false;
      this.drain();
    });
  }

  /** The report, every queued check run first. */
  report(): DriftReport {
    this.drain();
    return this.checker.report();
  }

  private drain(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    for (const { entry, path } of batch) {
      try {
        this.checker.check(entry, path);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
