import { tooManyStreams } from './errors.js';

/**
 * The open-stream slots of one emulator (`maxConcurrentStreams`), emulated and replayed streams alike.
 * A slot is taken when a stream request is admitted, in the same turn as the check, so requests that
 * arrive together cannot all pass the check before any is counted; it is given back once, on whichever
 * end comes first (the stream done, failed or timed out, the client gone, the emulator closed).
 */
export class StreamSlots {
  private taken = 0;

  constructor(
    private readonly max: number,
    /** Hears of each slot taken or given back. */
    private readonly changed: () => void = () => {},
  ) {}

  /** Streams admitted and not yet ended. */
  get open(): number {
    return this.taken;
  }

  /** Takes a slot, or throws the 429 when none is free; returns its release, which only its first call does. */
  reserve(): () => void {
    if (this.taken >= this.max) throw tooManyStreams();
    this.taken += 1;
    this.changed();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.taken -= 1;
      this.changed();
    };
  }
}
