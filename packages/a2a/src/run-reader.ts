import { APIUserAbortError, backoffDelay, type DataworkzError, type Redactor } from '@dataworkz/client';
import type { A2AStreamEvent, A2ATask } from './a2a-types.js';
import type { RunAnswer } from './answer.js';
import { IncompleteStreamError, ResumeFailedError } from './errors.js';
import type { AgentEvent, AgentResumedEvent } from './events.js';
import { toRunError } from './failure.js';
import { isRefusal, isStreamBreak, isTransient, pause, type ResumePolicy } from './resume.js';

type Stream = AsyncIterator<A2AStreamEvent, void, undefined>;
type Read = IteratorResult<A2AStreamEvent, void>;
type Result = IteratorResult<AgentEvent, undefined>;

/** How a run reaches its agent; each call is given the run's signal, which closes the connection when aborted. */
export interface RunConnection {
  /** Sends the message; the events of its stream, the first one read (to learn whether it opened at all). */
  open(signal: AbortSignal): Promise<{ events: Stream; first: Read }>;
  /** The events of a new stream of a task already running (it starts with the task as it stands). */
  resubscribe(taskId: string, signal: AbortSignal): Stream;
  getTask(taskId: string, signal: AbortSignal): Promise<A2ATask>;
  /** Removes the credential the latest request sent (and every other known one) from server text. */
  readonly redact: Redactor;
}

/** `resubscribed`: a resubscription has delivered no more than the task's snapshot so far. */
type Phase = 'live' | 'resubscribed' | 'polling';

/** A break the run is getting over: when it happened, what it was, and the last attempt's error. */
type Gap = { since: number; error: DataworkzError; lastError: unknown };

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The events of a run, a `resumed` event marking each gap. Not a generator: a `yield` costs an event
 * several microtasks where this costs one reaction on the SDK's `next()`.
 */
export class RunReader implements AsyncIterableIterator<AgentEvent, undefined> {
  #stream: Stream | undefined;
  #first: Read | undefined;
  /** The events of one A2A event, and the next of them to deliver. */
  #queue: AgentEvent[] = [];
  #index = 0;
  /** A read in progress; a second `next()` waits for it. */
  #reading: Promise<Result> | undefined;
  #closed = false;
  #phase: Phase = 'live';
  #gap: Gap | undefined;
  /** What broke the stream last: the error a ResumeFailedError reports. */
  #lastBreak: DataworkzError | undefined;
  /** Failed attempts in a row since the run last made progress (on a stream that proves it: `#anchored`). */
  #attempts = 0;
  #anchored = true;
  /** Time spent getting back to the task over every gap so far, and when the current one began. */
  #resumingMs = 0;
  #resumingSince: number | undefined;
  #pollNow = false;
  /** The signal's state, read on every event: a field is cheaper than its getter. */
  #aborted = false;

  constructor(
    private readonly connection: RunConnection,
    private readonly answer: RunAnswer,
    private readonly signal: AbortSignal,
    private readonly policy: ResumePolicy | undefined,
    /** Called once the run is over, however it ended: closes the connection. */
    private readonly onClose: () => void,
  ) {
    const onAbort = () => {
      this.#aborted = true;
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<Result> {
    if (this.#reading) {
      const again = () => this.next();
      return this.#reading.then(again, again);
    }
    if (this.#closed) return Promise.resolve(DONE);
    if (this.#index < this.#queue.length) {
      // Events already in hand when the caller aborted are not delivered.
      if (this.#aborted && !this.answer.answered) return this.#slow({ error: this.signal.reason });
      return Promise.resolve({ done: false, value: this.#queue[this.#index++] as AgentEvent });
    }
    if (this.answer.answered) {
      this.#close();
      return Promise.resolve(DONE);
    }
    const stream = this.#stream;
    // The callbacks clear `#reading` themselves: one reaction per event, not two.
    this.#reading = stream ? stream.next().then(this.#onNext, this.#onError) : this.#slow(undefined);
    return this.#reading;
  }

  async return(): Promise<Result> {
    this.#close();
    return DONE;
  }

  readonly #onNext = (read: Read): Result | Promise<Result> => {
    this.#reading = undefined;
    try {
      if (read.done) throw new IncompleteStreamError(this.answer.last);
      return this.#deliver(this.#map(read.value)) ?? this.next();
    } catch (error) {
      return this.#onError(error);
    }
  };

  readonly #onError = (error: unknown): Promise<Result> => {
    this.#reading = this.#slow({ error });
    return this.#reading;
  };

  /** The rare paths: opening, a break (`broke`), polling. Each awaits, so `#reading` is set first. */
  async #slow(broke: { error: unknown } | undefined): Promise<Result> {
    try {
      for (;;) {
        if (!broke && this.#phase === 'polling' && !this.#pollNow) {
          // Reads count against the time allowed for resuming, or a task that never ends is read for ever.
          const { maxTotalMs, pollIntervalMs } = this.policy as ResumePolicy;
          if (this.#resumingTime() + pollIntervalMs > maxTotalMs) {
            throw this.#resumeFailed(this.answer.taskId as string, this.#lastBreak, true);
          }
        }
        try {
          if (broke) throw broke.error;
          this.signal.throwIfAborted();
          let events: AgentEvent[];
          if (this.#phase === 'polling') {
            if (!this.#pollNow) await pause((this.policy as ResumePolicy).pollIntervalMs, this.signal);
            this.#pollNow = false;
            const task = await this.connection.getTask(this.answer.taskId as string, this.signal);
            events = this.#snapshot(task, 'poll');
            this.#attempts = 0;
          } else {
            if (this.#stream === undefined) {
              const opened = await this.connection.open(this.signal);
              this.#stream = opened.events;
              this.#first = opened.first;
            }
            const read = this.#first ?? (await this.#stream.next());
            this.#first = undefined;
            if (read.done) throw new IncompleteStreamError(this.answer.last);
            events = this.#map(read.value);
          }
          const result = this.#deliver(events);
          if (result) return result;
        } catch (thrown) {
          broke = undefined;
          await this.#recover(toRunError(thrown, this.signal));
        }
      }
    } catch (error) {
      const failure = this.connection.redact(toRunError(error, this.signal));
      this.answer.fail(failure);
      this.#close();
      throw failure;
    } finally {
      this.#reading = undefined;
    }
  }

  /** Takes in the events of one A2A event and hands over the first; undefined when it made none. */
  #deliver(events: AgentEvent[]): Result | undefined {
    this.answer.take(events, this.connection.redact);
    if (events.length === 0) return undefined;
    if (this.#aborted && !this.answer.answered) this.signal.throwIfAborted();
    this.#queue = events;
    this.#index = 1;
    return { done: false, value: events[0] as AgentEvent };
  }

  #map(raw: A2AStreamEvent): AgentEvent[] {
    if (this.#phase === 'resubscribed') {
      // A resubscription's first event: the task as it stands.
      if (raw.kind === 'task' && this.#gap !== undefined) {
        this.#anchored = true;
        return this.#snapshot(raw, 'resubscribe');
      }
      this.#phase = 'live';
      this.#resumingMs = this.#resumingTime();
      this.#resumingSince = undefined;
      if (this.#gap !== undefined) {
        // No snapshot first: a server could replay the same events on each resubscription, so such a
        // stream does not earn back the attempts.
        this.#anchored = false;
        return [this.#resumed(undefined, 'resubscribe'), ...this.answer.fromStream(raw)];
      }
    }
    if (this.#anchored) this.#attempts = 0;
    return this.answer.fromStream(raw);
  }

  #snapshot(task: A2ATask, via: AgentResumedEvent['via']): AgentEvent[] {
    return this.answer.fromSnapshot(task, this.#gap ? (t) => this.#resumed(t, via) : undefined);
  }

  #resumed(task: A2ATask | undefined, via: AgentResumedEvent['via']): AgentResumedEvent {
    const gap = this.#gap as Gap;
    this.#gap = undefined;
    return {
      type: 'resumed',
      taskId: this.answer.taskId,
      contextId: task?.contextId,
      final: false,
      raw: task,
      via,
      gapMs: Date.now() - gap.since,
      attempts: this.#attempts,
      error: gap.error,
      state: task?.status?.state,
      artifacts: this.answer.artifacts.result(),
    };
  }

  /** Gets back to the task after `error`, or throws what ends the run. */
  async #recover(error: DataworkzError): Promise<void> {
    const { policy, signal } = this;
    const { taskId } = this.answer;
    if (policy === undefined || taskId === undefined || signal.aborted || this.answer.answered) throw error;
    const refused = this.#phase === 'resubscribed' && isRefusal(error);
    if (!(this.#phase === 'polling' ? isTransient(error) : isStreamBreak(error) || refused)) throw error;
    // A resubscription that ends right after its snapshot: that agent will not stream the rest.
    if (refused || (this.#phase === 'resubscribed' && error instanceof IncompleteStreamError)) {
      this.#phase = 'polling';
    }
    const gap = this.#gap ?? { since: Date.now(), error, lastError: error };
    this.#gap = gap;
    gap.lastError = error;
    this.#lastBreak = gap.error;
    this.#resumingSince ??= Date.now();
    this.#closeStream();
    for (;;) {
      if (this.#attempts >= policy.maxAttempts) throw this.#resumeFailed(taskId, gap.lastError, false);
      const delay = backoffDelay(this.#attempts, policy);
      if (this.#resumingTime() + delay > policy.maxTotalMs) {
        throw this.#resumeFailed(taskId, gap.lastError, true);
      }
      this.#attempts += 1;
      await pause(delay, signal);
      if (this.#phase === 'polling') {
        this.#pollNow = true;
        return;
      }
      const stream = this.connection.resubscribe(taskId, signal);
      try {
        this.#first = await stream.next();
        this.#stream = stream;
        this.#phase = 'resubscribed';
        return;
      } catch (thrown) {
        const failure = toRunError(thrown, signal);
        if (signal.aborted) throw failure;
        // A refusal is an attempt that failed too: the task is read once the next wait is over.
        if (isRefusal(failure)) this.#phase = 'polling';
        else if (!isTransient(failure)) throw failure;
        gap.lastError = failure;
      }
    }
  }

  #resumingTime(): number {
    return this.#resumingMs + (this.#resumingSince === undefined ? 0 : Date.now() - this.#resumingSince);
  }

  #resumeFailed(taskId: string, cause: unknown, outOfTime: boolean): ResumeFailedError {
    return new ResumeFailedError(taskId, this.#attempts, this.#lastBreak as DataworkzError, cause, {
      elapsedMs: this.#resumingTime(),
      maxTotalMs: outOfTime ? this.policy?.maxTotalMs : undefined,
    });
  }

  #closeStream(): void {
    const stream = this.#stream;
    this.#stream = undefined;
    this.#first = undefined;
    // The run's signal closes the connection; this ends the SDK's generator too.
    stream?.return?.().catch(() => {});
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closeStream();
    if (!this.answer.answered) {
      this.answer.fail(new APIUserAbortError('The agent stream was closed before its final event.'));
    }
    this.onClose();
  }
}
