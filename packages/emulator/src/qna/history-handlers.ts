import { HttpError } from '../http/errors.js';
import type { Exchange } from '../http/exchange.js';
import type { ServiceState } from '../state.js';
import type { QuestionHistory } from './question-history.js';

/** The questions a system answered, by month (beyond the contract). */
export function listQnaQuestionHistory(state: ServiceState, ex: Exchange, questions: QuestionHistory): void {
  const { system } = state.system(ex.params.systemId ?? '');
  ex.reply.json(200, questions.months(system.systemId));
}

/** One answered question with its quality scores (beyond the contract). */
export function getQnaQuestion(state: ServiceState, ex: Exchange, questions: QuestionHistory): void {
  const { system } = state.system(ex.params.systemId ?? '');
  const questionId = ex.params.questionId ?? '';
  const record = questions.question(system.systemId, questionId);
  if (!record) {
    throw new HttpError(
      404,
      `No question with id ${questionId} in QnA system ${system.systemId}`,
      {},
      'QUESTION_NOT_FOUND',
    );
  }
  ex.reply.json(200, record);
}
