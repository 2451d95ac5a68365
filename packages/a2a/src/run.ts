import { APIUserAbortError, DataworkzError } from '@dataworkz/client';
import type { A2AArtifact, A2AMessage, A2AStreamEvent, TaskState } from './a2a-types.js';
import { IncompleteStreamError, TaskFailedError } from './errors.js';
import { type AgentEvent, textOf, toAgentEvents } from './events.js';
import { toRunError } from './failure.js';

/** The outcome of a run: the agent's response on its final event. */
export interface FinalAnswer {
  /** The response text: the final message's text, else the text of the artifacts. */
  answer: string;
  /** The task's final state (`completed` for a direct reply without a task). */
  state: TaskState;
  /** Pass these to the next turn to continue the conversation. */
  taskId: string | undefined;
  contextId: string | undefined;
  /** The final message, as sent. */
  message: A2AMessage | undefined;
  /** The artifacts the task produced, chunks assembled. */
  artifacts: A2AArtifact[];
  /** The final event. */
  event: AgentEvent;
}

const FAILED_STATES = new Set<string>(['failed', 'rejected', 'canceled']);

/** Opens the stream; given the run's signal, which closes the connection when aborted. */
export type OpenStream = (signal: AbortSignal) => AsyncIterable<A2AStreamEvent>;

interface Settled {
  promise: Promise<FinalAnswer>;
  resolve(answer: FinalAnswer): void;
  reject(error: unknown): void;
}

function settled(): Settled {
  let resolve!: (answer: FinalAnswer) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<FinalAnswer>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Callers who never ask for the answer must not see an unhandled rejection.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

function assemble(artifacts: Map<string, A2AArtifact>, event: AgentEvent): void {
  if (event.type !== 'artifact') return;
  const { artifact, append } = event;
  const earlier = artifacts.get(artifact.artifactId);
  const parts = Array.isArray(artifact.parts) ? artifact.parts : [];
  if (append && earlier) {
    // In place, on the run's own copy: copying all earlier parts per chunk made long streams quadratic.
    for (const part of parts) earlier.parts.push(part);
  } else artifacts.set(artifact.artifactId, { ...artifact, parts: [...parts] });
}

function finalAnswerOf(event: AgentEvent, artifacts: A2AArtifact[]): FinalAnswer {
  const message =
    event.type === 'status'
      ? event.message
      : event.type === 'message'
        ? event.message
        : event.type === 'task'
          ? event.task.status?.message
          : undefined;
  const state: TaskState = event.type === 'status' || event.type === 'task' ? event.state : 'completed';
  const text = textOf(message);
  const answer = text || artifacts.map((artifact) => textOf(artifact)).join('');
  return { answer, state, taskId: event.taskId, contextId: event.contextId, message, artifacts, event };
}

/**
 * A streamed agent run. Iterate it once for the events; `finalAnswer()` resolves with the response
 * (consuming the stream if nobody iterates). The request is sent when either begins. Breaking out of
 * the loop, `abort()` or the caller's signal closes the connection.
 */
export class AgentRun implements AsyncIterable<AgentEvent> {
  readonly #open: OpenStream;
  readonly #controller = new AbortController();
  readonly #final = settled();
  #started = false;
  #taskId: string | undefined;
  #contextId: string | undefined;
  readonly #redact: <E extends Error>(error: E) => E;

  /** `redact` removes the caller's credentials from errors built from what the server sent. */
  constructor(
    open: OpenStream,
    signal?: AbortSignal,
    redact: <E extends Error>(error: E) => E = (error) => error,
  ) {
    this.#open = open;
    this.#redact = redact;
    if (signal) {
      const onAbort = () => this.#controller.abort(signal.reason);
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener('abort', onAbort, { once: true });
        this.#controller.signal.addEventListener(
          'abort',
          () => signal.removeEventListener('abort', onAbort),
          { once: true },
        );
      }
    }
  }

  /** The task id, once the stream has named it. */
  get taskId(): string | undefined {
    return this.#taskId;
  }

  /** The context id, once the stream has named it. */
  get contextId(): string | undefined {
    return this.#contextId;
  }

  /** Stops the run and closes the connection; iteration and `finalAnswer()` reject with APIUserAbortError. */
  abort(reason?: unknown): void {
    this.#controller.abort(reason);
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    if (this.#started) throw new DataworkzError('An agent run can be iterated only once.');
    this.#started = true;
    return this.#events();
  }

  /** The agent's response. Rejects with TaskFailedError when the task failed, and with the stream's error. */
  async finalAnswer(): Promise<FinalAnswer> {
    if (!this.#started) {
      try {
        for await (const _event of this) {
          // Draining: the answer is settled by the final event.
        }
      } catch {
        // The same error settles the answer.
      }
    }
    return this.#final.promise;
  }

  /** The events as a web ReadableStream; cancelling it closes the connection. */
  toReadableStream(): ReadableStream<AgentEvent> {
    const iterator = this[Symbol.asyncIterator]();
    return new ReadableStream<AgentEvent>({
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    });
  }

  async *#events(): AsyncGenerator<AgentEvent, void, undefined> {
    const signal = this.#controller.signal;
    const artifacts = new Map<string, A2AArtifact>();
    let last: A2AStreamEvent | undefined;
    let ended = false;
    try {
      if (signal.aborted) throw new APIUserAbortError();
      for await (const raw of this.#open(signal)) {
        if (signal.aborted) throw new APIUserAbortError();
        last = raw;
        const events = toAgentEvents(raw);
        for (const event of events) {
          this.#taskId = event.taskId ?? this.#taskId;
          this.#contextId = event.contextId ?? this.#contextId;
          assemble(artifacts, event);
        }
        const finalEvent = events.find((event) => event.final);
        if (finalEvent) {
          // Settled before yielding: a consumer may stop right at the final event.
          ended = true;
          const answer = finalAnswerOf(finalEvent, [...artifacts.values()]);
          if (FAILED_STATES.has(answer.state)) {
            this.#final.reject(
              this.#redact(new TaskFailedError(answer.state, answer.answer, answer.taskId, answer.contextId)),
            );
          } else this.#final.resolve(answer);
        }
        for (const event of events) {
          // Events already buffered when the caller aborted are not delivered.
          if (signal.aborted && !ended) throw new APIUserAbortError();
          yield event;
        }
        if (finalEvent) return;
      }
      throw new IncompleteStreamError(last);
    } catch (error) {
      const failure = this.#redact(toRunError(error, signal));
      ended = true;
      this.#final.reject(failure);
      throw failure;
    } finally {
      if (!ended)
        this.#final.reject(new APIUserAbortError('The agent stream was closed before its final event.'));
      // Closes the connection: 0.3.14's transport only releases its reader.
      this.#controller.abort();
    }
  }
}
