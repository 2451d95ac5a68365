import type { A2AStreamEvent } from './a2a-types.js';
import type { RunAnswer } from './answer.js';
import { IncompleteStreamError } from './errors.js';
import type { AgentEvent } from './events.js';
import type { ResumePolicy } from './resume.js';
import { type OpenedStream, type RunConnection, type RunEnd, runEvents } from './run-events.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The events of a run. While its first stream flows, each event is read from the SDK's generator and
 * handed over in a settled promise, without a generator of ours between: an async generator's `yield`
 * costs every event several microtasks, which at tens of thousands of events a second is most of what
 * a wrapper adds. The first error or early end hands the run over to `runEvents`, which resumes it,
 * types the error, or ends it.
 */
export class RunIterator implements AsyncIterator<AgentEvent, undefined> {
  readonly #connection: RunConnection;
  readonly #answer: RunAnswer;
  readonly #signal: AbortSignal;
  readonly #policy: ResumePolicy | undefined;
  readonly #end: RunEnd;
  #source: OpenedStream | undefined;
  #events: AgentEvent[] = [];
  #index = 0;
  /** The resumable generator, once the live stream has failed or ended without its final event. */
  #rest: AsyncGenerator<AgentEvent, undefined, undefined> | undefined;
  #closed = false;
  /** A read in progress; a second `next()` waits for it. */
  #reading: Promise<IteratorResult<AgentEvent, undefined>> | undefined;

  constructor(
    connection: RunConnection,
    answer: RunAnswer,
    signal: AbortSignal,
    policy: ResumePolicy | undefined,
    end: RunEnd,
  ) {
    this.#connection = connection;
    this.#answer = answer;
    this.#signal = signal;
    this.#policy = policy;
    this.#end = end;
  }

  next(): Promise<IteratorResult<AgentEvent, undefined>> {
    if (this.#reading) {
      const again = () => this.next();
      return this.#reading.then(again, again);
    }
    if (this.#index < this.#events.length) {
      // Events already in hand when the caller aborted are not delivered.
      if (this.#signal.aborted && !this.#answer.answered) return this.#handOver(this.#signal.reason);
      return Promise.resolve({ done: false, value: this.#events[this.#index++] as AgentEvent });
    }
    if (this.#rest) return this.#rest.next();
    if (this.#closed) return Promise.resolve(DONE);
    if (this.#answer.answered) {
      this.#close();
      return Promise.resolve(DONE);
    }
    const source = this.#source;
    // The callbacks clear `#reading` themselves: one reaction per event, not two.
    const reading =
      source === undefined ? this.#open() : source.events.next().then(this.#onNext, this.#onError);
    this.#reading = reading;
    return reading;
  }

  // Iterable itself, as a generator is.
  [Symbol.asyncIterator](): this {
    return this;
  }

  async return(): Promise<IteratorResult<AgentEvent, undefined>> {
    if (this.#rest) return this.#rest.return(undefined);
    this.#close();
    return DONE;
  }

  async #open(): Promise<IteratorResult<AgentEvent, undefined>> {
    try {
      this.#signal.throwIfAborted();
      const source = await this.#connection.open(this.#signal);
      this.#source = source;
      const first = source.first as IteratorResult<A2AStreamEvent, void>;
      source.first = undefined;
      return this.#onNext(first);
    } catch (error) {
      return this.#onError(error);
    }
  }

  /** One result of the SDK's stream: its events, the first handed over now, the rest kept in hand. */
  readonly #onNext = (
    next: IteratorResult<A2AStreamEvent, void>,
  ): IteratorResult<AgentEvent, undefined> | Promise<IteratorResult<AgentEvent, undefined>> => {
    this.#reading = undefined;
    try {
      if (next.done) return this.#handOver(new IncompleteStreamError(this.#answer.last));
      const events = this.#answer.fromStream(next.value);
      this.#answer.take(events, this.#connection.redact);
      if (events.length === 0) return this.next();
      this.#events = events;
      this.#index = 1;
      if (this.#signal.aborted && !this.#answer.answered) return this.#handOver(this.#signal.reason);
      return { done: false, value: events[0] as AgentEvent };
    } catch (error) {
      return this.#handOver(error);
    }
  };

  readonly #onError = (error: unknown): Promise<IteratorResult<AgentEvent, undefined>> => {
    this.#reading = undefined;
    return this.#handOver(error);
  };

  /** Gives the run to the resumable generator: with the error that stopped the stream, or at its end. */
  #handOver(error: unknown): Promise<IteratorResult<AgentEvent, undefined>> {
    this.#events = [];
    this.#index = 0;
    this.#rest = runEvents(this.#connection, this.#answer, this.#signal, this.#policy, this.#end, {
      source: this.#source,
      error,
    });
    return this.#rest.next();
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#events = [];
    this.#source?.events.return?.().catch(() => {});
    this.#end.close();
  }
}
