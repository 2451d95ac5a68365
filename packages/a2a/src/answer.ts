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

function finalAnswerOf(event: AgentEvent, artifacts: A2AArtifact[]): FinalAnswer {
  let message: A2AMessage | undefined;
  if (event.type === 'status' || event.type === 'message') message = event.message;
  else if (event.type === 'task') message = event.task.status?.message;
  const state: TaskState = event.type === 'status' || event.type === 'task' ? event.state : 'completed';
  const answer = textOf(message) || artifacts.map((artifact) => textOf(artifact)).join('');
  return { answer, state, taskId: event.taskId, contextId: event.contextId, message, artifacts, event };
}

/** What a run has heard of its task, folded from its events, and the answer settled at the final one. */
export class RunAnswer {
  /** Its rejection is handled: callers who never ask for it must not see it unhandled. */
  readonly final: Promise<FinalAnswer>;
  #settle!: { resolve(answer: FinalAnswer): void; reject(error: unknown): void };
  readonly artifacts = new ArtifactAssembly();
  /** The task the stream named: what a resumed run gets back to. */
  taskId: string | undefined;
  contextId: string | undefined;
  /** The last A2A event received, for an IncompleteStreamError. */
  last: A2AStreamEvent | undefined;
  answered = false;
  #state: TaskState | undefined;
  /** The id of the last status message delivered, so a snapshot's copy of it is not delivered twice. */
  #statusMessageId: string | undefined;

  /** `observe` is told of every event taken in, when the run's span watches them. */
  constructor(private readonly observe?: (event: AgentEvent) => void) {
    this.final = new Promise((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    this.final.catch(() => {});
  }

  fromStream(raw: A2AStreamEvent): AgentEvent[] {
    if (typeof (raw as { kind?: unknown } | null)?.kind !== 'string') {
      throw new StreamProtocolError('An agent stream event carries no A2A event');
    }
    if (raw.kind === 'status-update' || raw.kind === 'task') this.#saw(raw);
    this.last = raw;
    return toAgentEvents(raw);
  }

  /** The events of a task's snapshot after a break: its artifacts replace the assembled ones. */
  fromSnapshot(task: A2ATask, resumed: ((task: A2ATask) => AgentResumedEvent) | undefined): AgentEvent[] {
    this.artifacts.replace(Array.isArray(task.artifacts) ? task.artifacts : []);
    const state = task.status?.state;
    const messageId = task.status?.message?.messageId;
    const events: AgentEvent[] = resumed ? [resumed(task)] : [];
    // Its status is told if new or after a gap, its message's task updates unless delivered already.
    if (resumed || endsRun(state) || state !== this.#state || messageId !== this.#statusMessageId) {
      const seen = this.#statusMessageId !== undefined && messageId === this.#statusMessageId;
      for (const event of toAgentEvents(task)) {
        if (event.type === 'task') events.push({ ...event, final: endsRun(event.state) });
        else if (!seen) events.push(event);
      }
    }
    this.#saw(task);
    this.last = task;
    return events;
  }

  #saw({ status }: Pick<A2ATask, 'status'>): void {
    this.#state = status?.state ?? this.#state;
    this.#statusMessageId = status?.message?.messageId ?? this.#statusMessageId;
  }

  /** Takes in the events to deliver; the answer is settled before the final one goes (a consumer may stop). */
  take(events: readonly AgentEvent[], redact: Redactor): void {
    let finalEvent: AgentEvent | undefined;
    for (const event of events) {
      this.observe?.(event);
      this.taskId = event.taskId ?? this.taskId;
      this.contextId = event.contextId ?? this.contextId;
      if (event.type === 'artifact') this.artifacts.add(event.artifact, event.append);
      if (event.final && !finalEvent) finalEvent = event;
    }
    if (!finalEvent || this.answered) return;
    this.answered = true;
    const answer = finalAnswerOf(finalEvent, this.artifacts.result());
    if (hasFailed(answer.state)) {
      // The agent's text is redacted before the message quotes (and cuts) it.
      const reason = redact(answer.answer);
      this.#settle.reject(redact(new TaskFailedError(answer.state, reason, answer.taskId, answer.contextId)));
    } else this.#settle.resolve(answer);
  }

  fail(error: unknown): void {
    this.answered = true;
    this.#settle.reject(error);
  }
}
