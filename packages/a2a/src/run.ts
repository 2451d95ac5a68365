import { APIConnectionTimeoutError, DataworkzError } from '@dataworkz/client';
import { type FinalAnswer, RunAnswer } from './answer.js';
import type { AgentEvent } from './events.js';
import type { ResumePolicy } from './resume.js';
import { type RunConnection, RunReader } from './run-reader.js';
import type { RunTrace } from './run-trace.js';

/** How a run is bounded; without `resume`, a break ends the run. */
export interface RunOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  resume?: ResumePolicy | undefined;
  trace: RunTrace;
}

// setTimeout cannot wait longer than this; a longer time-out means "none".
const MAX_TIMER_MS = 2_147_483_647;

/**
 * A streamed agent run: iterate it once for the events, or call `finalAnswer()`; the request is sent
 * when either begins. Breaking out of the loop, `abort()` or the caller's signal closes the connection.
 */
export class AgentRun implements AsyncIterable<AgentEvent> {
  readonly #connection: RunConnection;
  readonly #options: RunOptions;
  readonly #controller = new AbortController();
  #answer: RunAnswer | undefined;

  /** @internal Runs are made by `streamAgent`. */
  constructor(connection: RunConnection, options: RunOptions) {
    this.#connection = connection;
    this.#options = options;
  }

  /** The task id, once the stream has named it. */
  get taskId(): string | undefined {
    return this.#answer?.taskId;
  }

  /** The context id, once the stream has named it. */
  get contextId(): string | undefined {
    return this.#answer?.contextId;
  }

  /** Stops the run and closes the connection; iteration and `finalAnswer()` reject with APIUserAbortError. */
  abort(reason?: unknown): void {
    this.#controller.abort(reason);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<AgentEvent, undefined> {
    if (this.#answer) throw new DataworkzError('An agent run can be iterated only once.');
    const { trace: runTrace, signal: callerSignal, timeoutMs } = this.#options;
    runTrace.start();
    // Only a span that records is told of each event: a stream may carry tens of thousands.
    const answer = new RunAnswer(runTrace.recording ? (event) => runTrace.event(event) : undefined);
    this.#answer = answer;
    answer.final.then(
      (final) => runTrace.answered(final),
      (error: unknown) => runTrace.failed(error),
    );
    const controller = this.#controller;
    const { signal } = controller;
    // Listened to from the run's start to its end only: the caller's signal may serve many runs.
    const onAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onAbort();
    else if (callerSignal) {
      const forget = () => callerSignal.removeEventListener('abort', onAbort);
      callerSignal.addEventListener('abort', onAbort, { once: true });
      signal.addEventListener('abort', forget, { once: true });
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (timeoutMs !== undefined && timeoutMs < MAX_TIMER_MS && !signal.aborted) {
      timer = setTimeout(() => {
        const message = `streamAgent: the run took longer than its timeout of ${timeoutMs} ms.`;
        controller.abort(new APIConnectionTimeoutError(message));
      }, timeoutMs);
      // A pending stream keeps the process alive; the timer alone must not.
      (timer as { unref?: () => void }).unref?.();
    }
    return new RunReader(this.#connection, answer, signal, this.#options.resume, () => {
      clearTimeout(timer);
      // Closes the connection, also when the consumer stops early or the server keeps it open.
      controller.abort();
    });
  }

  /** The agent's response. Rejects with TaskFailedError when the task failed, and with the stream's error. */
  async finalAnswer(): Promise<FinalAnswer> {
    if (!this.#answer) {
      try {
        for await (const _event of this) {
          // Draining: the final event settles the answer, as does an error.
        }
      } catch {}
    }
    return (this.#answer as RunAnswer).final;
  }

  /** The events as a web ReadableStream; cancelling it closes the connection. */
  toReadableStream(): ReadableStream<AgentEvent> {
    const iterator = this[Symbol.asyncIterator]();
    return new ReadableStream<AgentEvent>({
      // A rejection errors the stream.
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    });
  }
}
