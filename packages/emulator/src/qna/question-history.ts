import { BoundedStore } from '../bounded-store.js';
import type { Limits } from '../limits.js';
import { type QualityScores, qualityScores } from './quality-scores.js';
import type { AnsweredQuestion } from './queries.js';

/** An answered question as the question endpoint returns it: a flat map. */
export type QuestionRecord = { llm_response: string; llm_model: string } & QualityScores;

interface Entry {
  systemId: string;
  question: string;
  askedAt: number;
  /** What the record is made from; the record itself is made when it is first read. */
  answered: AnsweredQuestion;
  model: string;
  record?: QuestionRecord;
}

const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `November 2026`: the month a question was asked, in UTC. */
const monthOf = (ms: number) => {
  const d = new Date(ms);
  return `${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};

const encoder = new TextEncoder();

/**
 * The questions answered by every system, by question id, oldest first in memory. Bounded by count
 * and by size (the recorded answer JSON, answer text, question and query as UTF-8): the oldest
 * questions go first, and one answer larger than the whole limit is not kept (see `BoundedStore`).
 */
export class QuestionHistory {
  private readonly kept: BoundedStore<string, Entry>;

  constructor(limits: Pick<Limits, 'maxQuestions' | 'maxQuestionBytes'>) {
    this.kept = new BoundedStore({ maxEntries: limits.maxQuestions, maxBytes: limits.maxQuestionBytes });
  }

  /** Forgets every question (a reset). */
  clear(): void {
    this.kept.clear();
  }

  record(systemId: string, answered: AnsweredQuestion, model: string, askedAt = Date.now()): void {
    // The answer and the query are kept besides the JSON, to score the record when it is read.
    const bytes = [answered.json, answered.question, answered.answer, answered.query].reduce(
      (sum, text) => sum + encoder.encode(text).length,
      0,
    );
    this.kept.set(
      answered.questionUuid,
      { systemId, question: answered.question, askedAt, answered, model },
      bytes,
    );
  }

  /** Every kept question, oldest first (the order `record` restores). */
  entries(): { systemId: string; askedAt: number; model: string; answered: AnsweredQuestion }[] {
    return this.kept.values().map(({ systemId, askedAt, model, answered }) => ({
      systemId,
      askedAt,
      model,
      answered,
    }));
  }

  /** Month to question id to question text, newest first. */
  months(systemId: string): Record<string, Record<string, string>> {
    const byMonth: Record<string, Record<string, string>> = {};
    for (const [id, entry] of this.kept.entries().reverse()) {
      if (entry.systemId !== systemId) continue;
      const month = monthOf(entry.askedAt);
      byMonth[month] ??= {};
      byMonth[month][id] = entry.question;
    }
    return byMonth;
  }

  /** The record of a question the system answered; undefined for any other id. */
  question(systemId: string, questionId: string): QuestionRecord | undefined {
    const entry = this.kept.get(questionId);
    if (entry?.systemId !== systemId) return undefined;
    // Scored on first read: most answered questions are never looked up, and scoring was a tenth of an answer.
    entry.record ??= {
      llm_response: entry.answered.json,
      llm_model: entry.model,
      ...qualityScores(entry.answered),
    };
    return entry.record;
  }
}
