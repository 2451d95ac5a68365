import type { Redactor } from '@dataworkz/client';
import type { A2AArtifact, A2AMessage, A2AStreamEvent, A2ATask, TaskState } from './a2a-types.js';
import { ArtifactAssembly } from './artifacts.js';
import { StreamProtocolError, TaskFailedError } from './errors.js';
import { type AgentEvent, type AgentResumedEvent, textOf, toAgentEvents } from './events.js';
import { endsRun, hasFailed } from './task-states.js';

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

/** A promise of the final answer, settled from outside. */
export interface Settled {
  promise: Promise<FinalAnswer>;
  resolve(answer: FinalAnswer): void;
  reject(error: unknown): void;
}

export function settled(): Settled {
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
    event.type === 'status' || event.type === 'message'
      ? event.message
      : event.type === 'task'
        ? event.task.status?.message
        : undefined;
  const state: TaskState = event.type === 'status' || event.type === 'task' ? event.state : 'completed';
  const text = textOf(message);
  const answer = text || artifacts.map((artifact) => textOf(artifact)).join('');
  return { answer, state, taskId: event.taskId, contextId: event.contextId, message, artifacts, event };
}

/** The id of the message a task's current status carries. */
function statusMessageIdOf(task: A2ATask): string | undefined {
  return task.status?.message?.messageId;
}

/**
 * The events of a task snapshot in a resumed run: its status message's task updates unless the
 * stream already delivered that message (told by its id), then the task itself, final when the task
 * has ended or waits on the user.
 */
function snapshotEvents(task: A2ATask, deliveredMessageId: string | undefined): AgentEvent[] {
  const seen = deliveredMessageId !== undefined && statusMessageIdOf(task) === deliveredMessageId;
  const events: AgentEvent[] = [];
  for (const event of toAgentEvents(task)) {
    if (event.type === 'task-update' && seen) continue;
    if (event.type === 'task') events.push({ ...event, final: endsRun(event.state) });
    else events.push(event);
  }
  return events;
}

/**
 * What a run has heard of its task, folded from the events as they come (from a stream, or from a
 * snapshot of the task after a break), and the final answer settled at the final event.
 */
export class RunAnswer {
  readonly #final: Settled;
  /** Told of every event taken in, when something (the run's span) watches them. */
  readonly #observe: ((event: AgentEvent) => void) | undefined;
  readonly #artifacts = new ArtifactAssembly();
  /** The task the stream named: what a resumed run gets back to. */
  taskId: string | undefined;
  /** The context the stream named. */
  contextId: string | undefined;
  /** The last A2A event received, for an IncompleteStreamError. */
  last: A2AStreamEvent | undefined;
  /** The final event was seen: the answer is settled. */
  answered = false;
  #state: TaskState | undefined;
  /** The id of the last status message delivered, so a snapshot's copy of it is not delivered twice. */
  #statusMessageId: string | undefined;

  constructor(final: Settled, observe?: (event: AgentEvent) => void) {
    this.#final = final;
    this.#observe = observe;
  }

  /** The events of one stream event. */
  fromStream(raw: A2AStreamEvent): AgentEvent[] {
    if (typeof (raw as { kind?: unknown } | null)?.kind !== 'string') {
      throw new StreamProtocolError('An agent stream event carries no A2A event');
    }
    this.last = raw;
    if (raw.kind === 'status-update' || raw.kind === 'task') {
      this.#state = raw.status?.state ?? this.#state;
      this.#statusMessageId = raw.status?.message?.messageId ?? this.#statusMessageId;
    }
    return toAgentEvents(raw);
  }

  /**
   * The events of a task as it stands, after a break: its artifacts replace the assembled ones (they
   * hold every chunk so far); its status is told unless it is what the stream last told, or the
   * snapshot marks the end of a gap (`resumed`, which goes first).
   */
  fromSnapshot(
    task: A2ATask,
    resumed: ((task: A2ATask, artifacts: A2AArtifact[]) => AgentResumedEvent) | undefined,
  ): AgentEvent[] {
    this.#artifacts.replace(Array.isArray(task.artifacts) ? task.artifacts : []);
    const state = task.status?.state;
    const news =
      resumed !== undefined ||
      endsRun(state) ||
      state !== this.#state ||
      statusMessageIdOf(task) !== this.#statusMessageId;
    const events: AgentEvent[] = [];
    if (resumed) events.push(resumed(task, this.#artifacts.result()));
    if (news) events.push(...snapshotEvents(task, this.#statusMessageId));
    this.last = task;
    this.#state = state ?? this.#state;
    this.#statusMessageId = statusMessageIdOf(task) ?? this.#statusMessageId;
    return events;
  }

  /** The artifacts so far. */
  artifacts(): A2AArtifact[] {
    return this.#artifacts.result();
  }

  /**
   * Takes in the events about to be delivered, and settles the answer at the final one, before it is
   * delivered: a consumer may stop right there. `redact` removes the credential from the agent's text.
   */
  take(events: readonly AgentEvent[], redact: Redactor): void {
    let finalEvent: AgentEvent | undefined;
    for (const event of events) {
      this.#observe?.(event);
      this.taskId = event.taskId ?? this.taskId;
      this.contextId = event.contextId ?? this.contextId;
      if (event.type === 'artifact') this.#artifacts.add(event.artifact, event.append);
      if (event.final && !finalEvent) finalEvent = event;
    }
    if (!finalEvent || this.answered) return;
    this.answered = true;
    const answer = finalAnswerOf(finalEvent, this.#artifacts.result());
    if (hasFailed(answer.state)) {
      // The agent's text is redacted before the message quotes (and cuts) it.
      const reason = redact(answer.answer);
      this.#final.reject(redact(new TaskFailedError(answer.state, reason, answer.taskId, answer.contextId)));
    } else this.#final.resolve(answer);
  }

  /** Ends the run with an error, unless its answer is settled already. */
  fail(error: unknown): void {
    this.answered = true;
    this.#final.reject(error);
  }
}
