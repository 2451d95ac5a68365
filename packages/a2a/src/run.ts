import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  DataworkzError,
  type Redactor,
} from '@dataworkz/client';
import type { A2AArtifact, A2AMessage, A2AStreamEvent, A2ATask, TaskState } from './a2a-types.js';
import { ArtifactAssembly } from './artifacts.js';
import { IncompleteStreamError, ResumeFailedError, TaskFailedError } from './errors.js';
import type { EventStreamReader } from './event-stream.js';
import { type AgentEvent, type AgentResumedEvent, textOf, toAgentEvents } from './events.js';
import { toRunError } from './failure.js';
import { isRefusal, isStreamBreak, isTransient, pause, type ResumePolicy, resumeDelay } from './resume.js';
import { endsRun, snapshotEvents, statusMessageIdOf } from './task-snapshot.js';

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

/** An open event stream: its body's reader, what reads one event's data, and its redactor. */
export interface OpenedStream {
  reader: EventStreamReader;
  /** The A2A event (in v0.3 shape, whatever the version spoken) one Server-Sent Event's data carries. */
  decode(data: string): A2AStreamEvent;
  /** Removes the credential this request sent (and every other known one) from server text. */
  redact: Redactor;
}

/** How a run is bounded and cleaned. */
export interface RunOptions {
  /** The caller's signal: aborting it closes the connection. */
  signal?: AbortSignal | undefined;
  /** Removes the caller's credentials from errors raised before the stream opened. */
  redact?: Redactor | undefined;
  /** Longest time for the whole run, in ms; past it the run ends with APIConnectionTimeoutError. */
  timeoutMs?: number | undefined;
  /** How to get back to the task when the stream breaks; undefined: the break ends the run. */
  resume?: ResumePolicy | undefined;
}

const keepAsIs: Redactor = (value) => value;
// setTimeout cannot wait longer than this; a longer time-out means "none".
const MAX_TIMER_MS = 2_147_483_647;

/** How a run reaches its agent; each call is given the run's signal, which closes the connection when aborted. */
export interface RunConnection {
  /** Sends the message and opens its event stream. */
  open(signal: AbortSignal): Promise<OpenedStream>;
  /** Opens a new event stream of a task already running (it starts with the task as it stands). */
  resubscribe(taskId: string, signal: AbortSignal): Promise<OpenedStream>;
  /** Reads the task as it stands. */
  getTask(taskId: string, signal: AbortSignal): Promise<A2ATask>;
}

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
  readonly #connection: RunConnection;
  readonly #resume: ResumePolicy | undefined;
  readonly #controller = new AbortController();
  readonly #final = settled();
  #started = false;
  #taskId: string | undefined;
  #contextId: string | undefined;
  readonly #redact: Redactor;
  readonly #timeoutMs: number | undefined;

  /** @internal Runs are made by `streamAgent`. */
  constructor(connection: RunConnection, options: RunOptions = {}) {
    const { signal } = options;
    this.#connection = connection;
    this.#resume = options.resume;
    this.#redact = options.redact ?? keepAsIs;
    this.#timeoutMs = options.timeoutMs;
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
    return new RunIterator(this.#connection, this.#controller, this.#final, {
      redact: this.#redact,
      timeoutMs: this.#timeoutMs,
      resume: this.#resume,
      seen: (event) => {
        this.#taskId = event.taskId ?? this.#taskId;
        this.#contextId = event.contextId ?? this.#contextId;
      },
    });
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
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

interface IteratorOptions {
  redact: Redactor;
  timeoutMs: number | undefined;
  resume: ResumePolicy | undefined;
  seen: (event: AgentEvent) => void;
}

/** A break the run is getting over: when it happened, what it was, and the last attempt's error. */
interface Gap {
  since: number;
  error: DataworkzError;
  lastError: unknown;
  via: 'resubscribe' | 'poll';
}

/**
 * The events of a run. Written out rather than as an async generator: an event already parsed is
 * handed over in an already-settled promise, without a generator's queue between the socket and the loop.
 */
class RunIterator implements AsyncIterator<AgentEvent, undefined> {
  readonly #connection: RunConnection;
  readonly #controller: AbortController;
  readonly #final: Settled;
  readonly #redact: Redactor;
  readonly #seen: (event: AgentEvent) => void;
  readonly #resume: ResumePolicy | undefined;
  #runTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #artifacts = new ArtifactAssembly();
  #stream: OpenedStream | undefined;
  #batch: string[] = [];
  #batchIndex = 0;
  #events: AgentEvent[] = [];
  #eventIndex = 0;
  #last: A2AStreamEvent | undefined;
  /** The final event was decoded: the answer is settled. */
  #answered = false;
  /** Nothing more to deliver. */
  #closed = false;
  /** A read in progress; a second `next()` waits for it. */
  #reading: Promise<unknown> | undefined;
  /** The run's signal fired (kept as a field: reading `signal.aborted` per event is measurably slow). */
  #aborted = false;
  /** The task the stream named: what a resumed run gets back to. */
  #taskId: string | undefined;
  /** The id of the last status message delivered, so a snapshot's copy of it is not delivered twice. */
  #statusMessageId: string | undefined;
  #state: TaskState | undefined;
  /** The break being got over, until the task's snapshot arrives. */
  #gap: Gap | undefined;
  /** Attempts since the stream last delivered something new. */
  #attempts = 0;
  /** The stream is a resubscription whose first event, the task as it stands, has not come yet. */
  #awaitingSnapshot = false;
  /** The stream is the first one, or a resubscription that began with the task's snapshot. */
  #anchored = true;
  /** The stream is a resubscription that has delivered nothing beyond its snapshot yet. */
  #resubscribed = false;
  /** The agent refused resubscription: the task is read until it ends. */
  #polling = false;
  /** A poll is due without waiting (right after an attempt's own delay). */
  #pollNow = false;

  constructor(
    connection: RunConnection,
    controller: AbortController,
    final: Settled,
    options: IteratorOptions,
  ) {
    this.#connection = connection;
    this.#controller = controller;
    this.#final = final;
    this.#redact = options.redact;
    this.#seen = options.seen;
    this.#resume = options.resume;
    const { timeoutMs } = options;
    const signal = controller.signal;
    if (timeoutMs !== undefined && timeoutMs < MAX_TIMER_MS && !signal.aborted) {
      this.#runTimer = setTimeout(() => {
        controller.abort(
          new APIConnectionTimeoutError(
            `streamAgent: the run took longer than its timeout of ${timeoutMs} ms.`,
          ),
        );
      }, timeoutMs);
      // A pending stream keeps the process alive; the timer alone must not.
      (this.#runTimer as { unref?: () => void }).unref?.();
    }
    if (signal.aborted) this.#aborted = true;
    else
      signal.addEventListener(
        'abort',
        () => {
          this.#aborted = true;
        },
        { once: true },
      );
  }

  next(): Promise<IteratorResult<AgentEvent, undefined>> {
    if (this.#reading) {
      const again = () => this.next();
      return this.#reading.then(again, again);
    }
    try {
      const event = this.#take();
      if (event) return Promise.resolve({ done: false, value: event });
      if (this.#closed) return Promise.resolve(DONE);
    } catch (error) {
      return Promise.reject(this.#fail(error));
    }
    const reading = this.#read();
    this.#reading = reading;
    const done = () => {
      this.#reading = undefined;
    };
    reading.then(done, done);
    return reading;
  }

  // Iterable itself, as a generator is.
  [Symbol.asyncIterator](): this {
    return this;
  }

  return(): Promise<IteratorResult<AgentEvent, undefined>> {
    this.#close();
    return Promise.resolve(DONE);
  }

  /** The next event already decoded or decodable from the chunk at hand, without waiting. */
  #take(): AgentEvent | undefined {
    for (;;) {
      // Events already buffered when the caller aborted are not delivered.
      if (this.#aborted && !this.#answered && !this.#closed) throw this.#abortError();
      if (this.#eventIndex < this.#events.length) return this.#events[this.#eventIndex++];
      if (this.#answered) {
        this.#close();
        return undefined;
      }
      if (this.#closed || this.#batchIndex >= this.#batch.length) return undefined;
      this.#decode(this.#batch[this.#batchIndex++] as string);
    }
  }

  async #read(): Promise<IteratorResult<AgentEvent, undefined>> {
    for (;;) {
      try {
        return await (this.#polling ? this.#poll() : this.#readStream());
      } catch (error) {
        if (!this.#canResume(error)) throw this.#fail(error);
        try {
          await this.#recover(error as DataworkzError);
        } catch (failure) {
          throw this.#fail(failure);
        }
      }
    }
  }

  async #readStream(): Promise<IteratorResult<AgentEvent, undefined>> {
    if (this.#controller.signal.aborted) throw this.#abortError();
    this.#stream ??= await this.#connection.open(this.#controller.signal);
    for (;;) {
      const event = this.#take();
      if (event) return { done: false, value: event };
      if (this.#closed) return DONE;
      const batch = await this.#stream.reader.read();
      if (batch === undefined) throw new IncompleteStreamError(this.#last);
      this.#batch = batch;
      this.#batchIndex = 0;
    }
  }

  /** Reads the task until it changes (or ends), for an agent that refuses resubscription. */
  async #poll(): Promise<IteratorResult<AgentEvent, undefined>> {
    const policy = this.#resume as ResumePolicy;
    for (;;) {
      const event = this.#take();
      if (event) return { done: false, value: event };
      if (this.#closed) return DONE;
      if (!this.#pollNow) await pause(policy.pollIntervalMs, this.#controller.signal);
      this.#pollNow = false;
      const task = await this.#connection.getTask(this.#taskId as string, this.#controller.signal);
      this.#snapshot(task);
      this.#attempts = 0;
    }
  }

  /** Whether a failure is a break the run can get over: resuming is on and the task is known. */
  #canResume(error: unknown): boolean {
    if (!this.#resume || this.#taskId === undefined || this.#aborted || this.#answered || this.#closed)
      return false;
    if (this.#polling) return isTransient(error);
    // A resubscription refused inside its stream (v1.0 servers refuse one to a task already ended).
    return isStreamBreak(error) || (this.#awaitingSnapshot && isRefusal(error));
  }

  /**
   * Gets back to the task after a break: waits, then resubscribes, until a stream opens or the
   * attempts run out. A refusal turns to polling; a stream that ends right after its snapshot too,
   * since that agent will not stream the rest.
   */
  async #recover(error: DataworkzError): Promise<void> {
    const policy = this.#resume as ResumePolicy;
    const taskId = this.#taskId as string;
    const signal = this.#controller.signal;
    const gap: Gap = this.#gap ?? { since: Date.now(), error, lastError: error, via: 'resubscribe' };
    this.#gap = gap;
    gap.lastError = error;
    this.#stream?.reader.cancel();
    this.#stream = undefined;
    this.#batch = [];
    this.#batchIndex = 0;
    // A resubscription that ends right after its snapshot: this agent will not stream the rest.
    const snapshotOnly = this.#resubscribed && !this.#awaitingSnapshot;
    const refused = this.#awaitingSnapshot && isRefusal(error);
    this.#awaitingSnapshot = false;
    if (!this.#polling && ((snapshotOnly && error instanceof IncompleteStreamError) || refused)) {
      this.#startPolling(gap);
    }
    for (;;) {
      if (this.#attempts >= policy.maxAttempts) {
        throw new ResumeFailedError(taskId, this.#attempts, gap.error, gap.lastError);
      }
      this.#attempts += 1;
      await pause(resumeDelay(policy, this.#attempts), signal);
      if (this.#polling) {
        this.#pollNow = true;
        return;
      }
      try {
        this.#stream = await this.#connection.resubscribe(taskId, signal);
        this.#awaitingSnapshot = true;
        this.#resubscribed = true;
        return;
      } catch (failure) {
        if (this.#aborted) throw failure;
        if (isRefusal(failure)) {
          this.#startPolling(gap);
          this.#pollNow = true;
          return;
        }
        if (!isTransient(failure)) throw failure;
        gap.lastError = failure;
      }
    }
  }

  #startPolling(gap: Gap): void {
    this.#polling = true;
    gap.via = 'poll';
  }

  #decode(data: string): void {
    const raw = (this.#stream as OpenedStream).decode(data);
    this.#last = raw;
    if (this.#awaitingSnapshot) {
      this.#awaitingSnapshot = false;
      if (raw.kind === 'task') {
        this.#anchored = true;
        this.#snapshot(raw);
        return;
      }
      // No snapshot first: the gap is over all the same, but such a stream proves nothing about the
      // run going on (a server could replay the same events on each resubscription): it does not
      // earn back the attempts.
      this.#anchored = false;
      const resumed = this.#resumedEvent(undefined);
      this.#progress(raw);
      this.#deliver([resumed, ...toAgentEvents(raw)]);
      return;
    }
    this.#progress(raw);
    this.#deliver(toAgentEvents(raw));
  }

  /** A stream event beyond a snapshot: the stream works again, and its status is remembered. */
  #progress(raw: A2AStreamEvent): void {
    if (this.#anchored) this.#attempts = 0;
    this.#resubscribed = false;
    if (raw.kind !== 'status-update' && raw.kind !== 'task') return;
    this.#state = raw.status?.state ?? this.#state;
    this.#statusMessageId = raw.status?.message?.messageId ?? this.#statusMessageId;
  }

  /**
   * A task as it stands, after a break: its artifacts replace the assembled ones (they hold every
   * chunk so far), and its status is delivered unless it is what the stream last delivered.
   */
  #snapshot(task: A2ATask): void {
    this.#artifacts.replace(Array.isArray(task.artifacts) ? task.artifacts : []);
    const state = task.status?.state;
    const news =
      this.#gap !== undefined ||
      endsRun(state) ||
      state !== this.#state ||
      statusMessageIdOf(task) !== this.#statusMessageId;
    const events: AgentEvent[] = [];
    if (this.#gap) events.push(this.#resumedEvent(task));
    if (news) events.push(...snapshotEvents(task, this.#statusMessageId));
    this.#last = task;
    this.#state = state ?? this.#state;
    this.#statusMessageId = statusMessageIdOf(task) ?? this.#statusMessageId;
    this.#deliver(events);
  }

  #resumedEvent(task: A2ATask | undefined): AgentResumedEvent {
    const gap = this.#gap as Gap;
    this.#gap = undefined;
    return {
      type: 'resumed',
      taskId: this.#taskId,
      contextId: task?.contextId,
      final: false,
      raw: task,
      via: gap.via,
      gapMs: Date.now() - gap.since,
      attempts: this.#attempts,
      error: gap.error,
      state: task?.status?.state,
      artifacts: this.#artifacts.result(),
    };
  }

  /** Hands events over (replacing those delivered), and settles the answer at the final one. */
  #deliver(events: AgentEvent[]): void {
    let finalEvent: AgentEvent | undefined;
    for (const event of events) {
      this.#seen(event);
      this.#taskId = event.taskId ?? this.#taskId;
      if (event.type === 'artifact') this.#artifacts.add(event.artifact, event.append);
      if (event.final && !finalEvent) finalEvent = event;
    }
    this.#events = events;
    this.#eventIndex = 0;
    if (finalEvent) {
      // Settled before delivering: a consumer may stop right at the final event.
      this.#answered = true;
      const answer = finalAnswerOf(finalEvent, this.#artifacts.result());
      if (FAILED_STATES.has(answer.state)) {
        const redact = this.#stream?.redact ?? this.#redact;
        // The agent's text is redacted before the message quotes (and cuts) it.
        const reason = redact(answer.answer);
        this.#final.reject(
          redact(new TaskFailedError(answer.state, reason, answer.taskId, answer.contextId)),
        );
      } else this.#final.resolve(answer);
    }
  }

  /** The error for a run whose signal fired: its own time-out, or the caller's abort. */
  #abortError(): DataworkzError {
    const reason: unknown = this.#controller.signal.reason;
    return reason instanceof APIConnectionTimeoutError ? reason : new APIUserAbortError();
  }

  #fail(error: unknown): DataworkzError {
    const redact = this.#stream?.redact ?? this.#redact;
    const failure = redact(toRunError(error, this.#controller.signal));
    this.#answered = true;
    this.#final.reject(failure);
    this.#close();
    return failure;
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#runTimer);
    this.#events = [];
    this.#batch = [];
    if (!this.#answered) {
      this.#final.reject(new APIUserAbortError('The agent stream was closed before its final event.'));
    }
    // Closes the connection, also when the consumer stops early or the server keeps it open.
    this.#controller.abort();
  }
}
