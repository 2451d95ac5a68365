import { MalformedResponseError } from '../core/errors.js';
import type { AnsweredQuestion, AnswerResponse, QuestionRecord } from '../types.js';
import { readJson } from './read.js';
import type { Attempt, AttemptResult } from './transport.js';

const scoreNames: Exclude<keyof AnsweredQuestion, 'llm_response' | 'llm_model'>[] = [
  'retrival_relevance',
  'retrival_context_recall',
  'generation_relevance',
  'generation_groundedness',
  'generation_correctness',
  'generation_confidence_score',
];

/** A score sent as a number or numeric text; anything else reads as absent. */
function scoreOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** The question's flat map, `llm_response` parsed; one that is not an answer's JSON object is a MalformedResponseError. */
export async function readAnsweredQuestion(
  result: AttemptResult,
  attempt: Attempt,
): Promise<AnsweredQuestion> {
  const { response } = result;
  const record = await readJson<unknown>(result, attempt);
  const malformed = (why: string) =>
    new MalformedResponseError(response.status, record, response.headers, `The question record ${why}.`);
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw malformed('is not a JSON object');
  }
  const { llm_response: text, llm_model: model } = record as QuestionRecord;
  if (typeof text !== 'string') throw malformed('has no llm_response text');
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw malformed("has an llm_response that is not the answer's JSON");
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw malformed("has an llm_response that is not the answer's JSON object");
  }
  // Fields the spec does not name stay, as in every other result.
  const question: AnsweredQuestion = { ...(record as object), llm_response: answer as AnswerResponse };
  if (typeof model !== 'string') delete question.llm_model;
  for (const name of scoreNames) {
    const score = scoreOf((record as QuestionRecord)[name]);
    if (score === undefined) delete question[name];
    else question[name] = score;
  }
  return question;
}
