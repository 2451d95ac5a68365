import { InvalidParameterError } from '../core/errors.js';
import type { ConversationMessage } from '../types.js';

/** A conversation so far, checked turn by turn: `{ by: 'AI' | 'USER', text: string }`. */
export function checkHistory(history: unknown): ConversationMessage[] {
  if (!Array.isArray(history)) {
    throw new InvalidParameterError('conversationHistory', 'conversationHistory must be an array.');
  }
  for (const [index, message] of history.entries()) {
    const by = (message as { by?: unknown } | null)?.by;
    const text = (message as { text?: unknown } | null)?.text;
    if ((by !== 'AI' && by !== 'USER') || typeof text !== 'string') {
      throw new InvalidParameterError(
        'conversationHistory',
        `conversationHistory[${index}] must be { by: 'AI' | 'USER', text: string }.`,
      );
    }
  }
  return history as ConversationMessage[];
}
