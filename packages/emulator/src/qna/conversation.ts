import { HttpError } from '../http/errors.js';
import { readHistoryTurns } from '../http/history-turns.js';
import { parseJsonBody } from '../http/json-body.js';
import type { Limits } from '../limits.js';

/** One turn of a conversation posted with a search or an answer. */
export interface ChatTurn {
  by: 'AI' | 'USER';
  text: string;
}

type ConversationLimits = Pick<Limits, 'maxTextLength' | 'maxTurnsPerContext' | 'maxJsonDepth'>;

const badBody = (message: string) => new HttpError(400, message, {}, 'BAD_REQUEST_BODY');

/**
 * The conversation history of a posted search or answer (its most recent `maxTurnsPerContext`
 * turns). The body is optional and read whatever its content type says: clients post an empty body,
 * and JSON without a content type. `queryPlan` is accepted (an object or text) and not followed.
 */
export function readConversation(body: string, limits: ConversationLimits): ChatTurn[] {
  if (body.trim() === '') return [];
  const parsed = parseJsonBody(body, limits.maxJsonDepth);
  if (parsed === null) return [];
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badBody('The request body must be a JSON object: {conversationHistory?, queryPlan?}');
  }
  const { conversationHistory, queryPlan } = parsed as Record<string, unknown>;
  if (
    queryPlan !== undefined &&
    queryPlan !== null &&
    typeof queryPlan !== 'object' &&
    typeof queryPlan !== 'string'
  ) {
    throw badBody('queryPlan must be an object or a string');
  }
  return readHistoryTurns(conversationHistory, limits.maxTextLength).slice(-limits.maxTurnsPerContext);
}
