import type { DataworkzError, Redactor } from '@dataworkz/client';
import type { A2AStreamEvent, A2ATask } from './a2a-types.js';
import type { RunAnswer } from './answer.js';
import { IncompleteStreamError, ResumeFailedError } from './errors.js';
import type { AgentEvent, AgentResumedEvent } from './events.js';
import { toRunError } from './failure.js';
import { isRefusal, isStreamBreak, isTransient, pause, type ResumePolicy, resumeDelay } from './resume.js';

/** How a run reaches its agent; each call is given the run's signal, which closes the connection when aborted. */
export interface RunConnection {
  /** Sends the message; the events of its stream, the first one read. */
  open(signal: AbortSignal): Promise<OpenedStream>;
  /** The events of a new stream of a task already running (it starts with the task as it stands). */
  resubscribe(taskId: string, signal: AbortSignal): AsyncIterator<A2AStreamEvent, void, undefined>;
  /** Reads the task as it stands. */
  getTask(taskId: string, signal: AbortSignal): Promise<A2ATask>;
  /** Removes the credential the latest request sent (and every other known one) from server text. */
  readonly redact: Redactor;
}

/**
 * Where a run stands: reading the stream its message opened (or a resubscription that has gone live),
 * reading a resubscription that has delivered no more than the task's snapshot, or reading the task
 * with `tasks/get` because the agent will not stream it.
 */
type Phase = 'live' | 'resubscribed' | 'polling';

/** A break the run is getting over: when it happened, what it was, and the last attempt's error. */
interface Gap {
  since: number;
  error: DataworkzError;
  lastError: unknown;
}

/** A stream's events, its first result read already (to learn whether it opened at all). */
export interface OpenedStream {
  events: AsyncIterator<A2AStreamEvent, void, undefined>;
  first: IteratorResult<A2AStreamEvent, void> | undefined;
}

/** How the run handle finishes a run: the error it ends with, and what closes it however it ends. */
export interface RunEnd {
  /** The typed, redacted error the run rejects with (it settles the answer too). */
  fail(error: unknown): DataworkzError;
  /** Called once the run is over, however it ended. */
  close(): void;
}

/**
 * The events of a run, from its stream and, after a break, from a resubscription to the task (or from
 * reading it, when the agent refuses to stream it again), with a `resumed` event marking each gap.
 * Ends after the final event; throws what ended the run otherwise, as `end.fail` makes it. One
 * generator between the SDK's and the caller's loop: each layer costs every event a few microtasks.
 */
export async function* runEvents(
  connection: RunConnection,
  answer: RunAnswer,
  signal: AbortSignal,
  policy: ResumePolicy | undefined,
  end: RunEnd,
  /** Where a caller that read the live stream itself hands over: its stream, and what broke it. */
  handover?: { source: OpenedStream | undefined; error: unknown },
): AsyncGenerator<AgentEvent, undefined, undefined> {
  let phase: Phase = 'live';
  let source: OpenedStream | undefined = handover?.source;
  let pending: { error: unknown } | undefined = handover ? { error: handover.error } : undefined;
  let gap: Gap | undefined;
  /** Failed attempts in a row since the run last made progress. */
  let attempts = 0;
  /** The live stream proves the run goes on: progress on it earns back the attempts. */
  let anchored = true;
  /** Time spent getting back to the task, in ms, over every gap so far; and when the current one began. */
  let resumingMs = 0;
  let resumingSince: number | undefined;
  let pollNow = false;

  const resumedEvent = (task: A2ATask | undefined, via: 'resubscribe' | 'poll'): AgentResumedEvent => {
    const current = gap as Gap;
    gap = undefined;
    return {
      type: 'resumed',
      taskId: answer.taskId,
      contextId: task?.contextId,
      final: false,
      raw: task,
      via,
      gapMs: Date.now() - current.since,
      attempts,
      error: current.error,
      state: task?.status?.state,
      artifacts: answer.artifacts(),
    };
  };
  const snapshot = (task: A2ATask, via: 'resubscribe' | 'poll') =>
    answer.fromSnapshot(task, gap ? (t) => resumedEvent(t, via) : undefined);
  const backLive = () => {
    if (resumingSince !== undefined) resumingMs += Date.now() - resumingSince;
    resumingSince = undefined;
  };
  /** What broke the stream last: the error a ResumeFailedError reports. */
  let lastBreak: DataworkzError | undefined;
  const resumeFailed = (taskId: string, cause: unknown, outOfTime: boolean) =>
    new ResumeFailedError(taskId, attempts, lastBreak as DataworkzError, cause, {
      elapsedMs: resumingMs + (resumingSince === undefined ? 0 : Date.now() - resumingSince),
      maxTotalMs: outOfTime ? policy?.maxTotalMs : undefined,
    });

  /**
   * Gets back to the task after a break: waits, then resubscribes, until a stream opens or the
   * attempts (or the time allowed for resuming) run out. A refusal turns to polling; so does a
   * resubscription that ends right after its snapshot, since that agent will not stream the rest.
   */
  async function recover(error: DataworkzError, resumable: ResumePolicy, taskId: string): Promise<void> {
    const current: Gap = gap ?? { since: Date.now(), error, lastError: error };
    gap = current;
    current.lastError = error;
    lastBreak = current.error;
    resumingSince ??= Date.now();
    closeSource();
    if (phase === 'resubscribed' && error instanceof IncompleteStreamError) phase = 'polling';
    for (;;) {
      if (attempts >= resumable.maxAttempts) throw resumeFailed(taskId, current.lastError, false);
      const delay = resumeDelay(resumable, attempts + 1);
      if (resumingMs + (Date.now() - resumingSince) + delay > resumable.maxTotalMs) {
        throw resumeFailed(taskId, current.lastError, true);
      }
      attempts += 1;
      await pause(delay, signal);
      if (phase === 'polling') {
        pollNow = true;
        return;
      }
      const events = connection.resubscribe(taskId, signal);
      try {
        source = { events, first: await events.next() };
        phase = 'resubscribed';
        return;
      } catch (thrown) {
        const failure = toRunError(thrown, signal);
        if (signal.aborted) throw failure;
        // A refusal is an attempt that failed too: the task is read once the next wait is over.
        if (isRefusal(failure)) phase = 'polling';
        else if (!isTransient(failure)) throw failure;
        current.lastError = failure;
      }
    }
  }

  function closeSource(): void {
    const events = source?.events;
    source = undefined;
    // The run's signal closes the connection; this ends the SDK's generator too.
    events?.return?.().catch(() => {});
  }

  /** The events of one A2A event of the stream at hand. */
  function fromStream(raw: A2AStreamEvent): AgentEvent[] {
    if (phase !== 'resubscribed') {
      if (anchored) attempts = 0;
      return answer.fromStream(raw);
    }
    // A resubscription's first event: the task as it stands.
    if (raw.kind === 'task' && gap !== undefined) {
      anchored = true;
      return snapshot(raw, 'resubscribe');
    }
    phase = 'live';
    backLive();
    if (gap === undefined) {
      if (anchored) attempts = 0;
      return answer.fromStream(raw);
    }
    // No snapshot first: the gap is over all the same, but such a stream proves nothing about the run
    // going on (a server could replay the same events on each resubscription): it does not earn back
    // the attempts.
    anchored = false;
    const resumed = resumedEvent(undefined, 'resubscribe');
    return [resumed, ...answer.fromStream(raw)];
  }

  try {
    signal.throwIfAborted();
    for (;;) {
      let events: AgentEvent[];
      try {
        if (pending) {
          const { error } = pending;
          pending = undefined;
          throw error;
        }
        if (phase === 'polling') {
          if (!pollNow) await pause((policy as ResumePolicy).pollIntervalMs, signal);
          pollNow = false;
          events = snapshot(await connection.getTask(answer.taskId as string, signal), 'poll');
          attempts = 0;
        } else {
          source ??= await connection.open(signal);
          const current = source;
          const next = current.first ?? (await current.events.next());
          current.first = undefined;
          if (next.done) throw new IncompleteStreamError(answer.last);
          events = fromStream(next.value);
        }
      } catch (thrown) {
        // The SDK's plain errors, typed: what they are decides whether the run resumes.
        const error = toRunError(thrown, signal);
        // Read afresh: `recover` and `fromStream` change the phase.
        const at = phase as Phase;
        const taskId = answer.taskId;
        const resumable =
          policy !== undefined && taskId !== undefined && !signal.aborted && !answer.answered
            ? policy
            : undefined;
        const canResume =
          resumable !== undefined &&
          (at === 'polling'
            ? isTransient(error)
            : isStreamBreak(error) || (at === 'resubscribed' && isRefusal(error)));
        if (!canResume) throw error;
        if (at === 'resubscribed' && isRefusal(error)) phase = 'polling';
        await recover(error, resumable, taskId as string);
        continue;
      }
      answer.take(events, connection.redact);
      for (const event of events) {
        // Events already in hand when the caller aborted are not delivered.
        if (signal.aborted && !answer.answered) signal.throwIfAborted();
        yield event;
      }
      if (answer.answered) return undefined;
      if (phase === 'polling' && resumingSince !== undefined) {
        // A task read, not streamed, is still being got back to: the reads count against the time
        // allowed for resuming, or an agent that never ends its task would be read for ever.
        const { maxTotalMs, pollIntervalMs } = policy as ResumePolicy;
        if (resumingMs + (Date.now() - resumingSince) + pollIntervalMs > maxTotalMs) {
          throw resumeFailed(answer.taskId as string, lastBreak, true);
        }
      }
    }
  } catch (error) {
    throw end.fail(error);
  } finally {
    closeSource();
    end.close();
  }
}
