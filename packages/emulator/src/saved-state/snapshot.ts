import type { Task } from '@a2a-js/sdk';
import type { ConversationStore } from '../a2a/conversations.js';
import type { TaskMemory } from '../a2a/task-memory.js';
import type { OrderBook } from '../agents/order-book.js';
import type { QnaSystem } from '../data/model.js';
import type { FaultList, FaultRule } from '../http/faults.js';
import type { AnsweredQuestion } from '../qna/queries.js';
import type { QuestionHistory } from '../qna/question-history.js';

/** The format's name and version; a reader refuses another name, or a version it does not know. */
export const stateFormat = 'dataworkz-emulator-state';
/** The version of the saved-state format this emulator writes. */
export const stateVersion = 1;

/**
 * What an emulator keeps of a session, as `--export-on-exit` writes it and `--import` reads it: one
 * JSON file per part, so a person can read and edit each (see the testing guide for the format).
 */
export interface EmulatorState {
  format: typeof stateFormat;
  version: typeof stateVersion;
  /** When it was exported, ISO 8601. */
  exportedAt: string;
  /** The QnA systems with their documents' text (a document's file bytes are not kept: served rendered from the text). */
  systems: SavedSystem[];
  /** Agent conversations by context, least recently written first. */
  conversations: {
    agentId: string;
    contextId: string;
    turns: { by: 'AI' | 'USER'; text: string }[];
    contextValues: Record<string, unknown>;
  }[];
  /** A2A tasks, least recently saved first. */
  tasks: { agentId: string; task: unknown }[];
  /** Answered questions, oldest first; `answer` is what the answer endpoint returned. */
  questions: {
    systemId: string;
    askedAt: string;
    model: string;
    questionUuid: string;
    question: string;
    query: string;
    contexts: string[];
    scores: number[];
    answer: unknown;
  }[];
  /** Fault rules in force, with the uses each has left. */
  faults: { rule: FaultRule; remaining: number }[];
  /** Orders cancelled through an agent: order id to cancellation date. */
  cancelledOrders: Record<string, string>;
}

/** A QnA system as a state keeps it; spelled out, so an edited file is checked against what is documented. */
export interface SavedSystem {
  systemId: string;
  name: string;
  prompt: string;
  database: string;
  dataset: string;
  createdBy: string;
  createdDate: string;
  modifiedBy: string;
  modifiedDate: string;
  /** LLM configuration id to model name. */
  llms: Record<string, string>;
  /** The filterable metadata fields. */
  fields: { name: string; type: 'string' | 'integer'; description: string }[];
  documents: SavedDocument[];
}

/** A document as a state keeps it: its text, not its file's bytes. */
export interface SavedDocument {
  documentId: string;
  title: string;
  format: 'pdf' | 'docx' | 'txt' | 'md' | 'html';
  /** Paragraphs of text; retrieval indexes each one. */
  paragraphs: string[];
  metadata: Record<string, string | number>;
  fileName?: string;
  url?: string;
}

/**
 * A state that cannot be read (not JSON, another format or version, a record of the wrong shape or
 * past the API's limits: the message names the file and the record) or written (a symbolic link
 * where one of its files goes). The message never quotes a file's contents.
 */
export class StateFormatError extends Error {
  override readonly name = 'StateFormatError';
}

/** The stores a state is read from and restored to. */
export interface StateParts {
  systems: readonly QnaSystem[];
  conversations: ConversationStore;
  tasks: TaskMemory;
  questions: QuestionHistory;
  faults: FaultList;
  orders: OrderBook;
}

export function collectState(parts: StateParts, now = new Date()): EmulatorState {
  return {
    format: stateFormat,
    version: stateVersion,
    exportedAt: now.toISOString(),
    systems: parts.systems.map(({ documents, ...system }) => ({
      ...system,
      documents: documents.map(({ bytes: _bytes, ...document }) => document),
    })),
    conversations: parts.conversations
      .entries()
      .map(({ agentId, contextId, conversation }) => ({ agentId, contextId, ...conversation })),
    tasks: parts.tasks.entries(),
    questions: parts.questions.entries().map(({ systemId, askedAt, model, answered }) => ({
      systemId,
      askedAt: new Date(askedAt).toISOString(),
      model,
      questionUuid: answered.questionUuid,
      question: answered.question,
      query: answered.query,
      contexts: answered.contexts,
      scores: answered.scores,
      answer: JSON.parse(answered.json) as unknown,
    })),
    faults: parts.faults.list(),
    cancelledOrders: parts.orders.cancellations(),
  };
}

/** Restores everything but the systems (those are built into the state before it starts). */
export function restoreState(parts: StateParts, state: EmulatorState): void {
  for (const { agentId, contextId, turns, contextValues } of state.conversations) {
    parts.conversations.write(agentId, contextId, { turns, contextValues });
  }
  for (const { agentId, task } of state.tasks) parts.tasks.restore(agentId, task as Task);
  for (const q of state.questions) {
    const json = JSON.stringify(q.answer);
    const answer = (q.answer as { answer?: unknown } | null)?.answer;
    const answered: AnsweredQuestion = {
      questionUuid: q.questionUuid,
      question: q.question,
      query: q.query,
      answer: typeof answer === 'string' ? answer : '',
      contexts: q.contexts,
      scores: q.scores,
      json,
    };
    parts.questions.record(q.systemId, answered, q.model, Date.parse(q.askedAt));
  }
  parts.faults.clear();
  state.faults.forEach(({ rule, remaining }, i) => {
    try {
      parts.faults.add({ ...rule, times: remaining });
    } catch (error) {
      throw new StateFormatError(`faults[${i}]: ${(error as Error).message}`);
    }
  });
  for (const [orderId, date] of Object.entries(state.cancelledOrders)) {
    parts.orders.restoreCancellation(orderId, date);
  }
}

/**
 * Back to the state the emulator started in: what the session created is forgotten, then the state it
 * was started from (`import`), if any, restored; the faults become those it started with.
 */
export function resetState(
  parts: StateParts,
  started: EmulatorState | undefined,
  faults: readonly FaultRule[],
): void {
  parts.conversations.clear();
  parts.tasks.clear();
  parts.questions.clear();
  parts.orders.clear();
  parts.faults.clear();
  if (started) restoreState(parts, started);
  else for (const rule of faults) parts.faults.add(rule);
}
