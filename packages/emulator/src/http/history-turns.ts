import { HttpError } from './errors.js';

/** One turn of a conversation history as the service's request bodies carry it. */
export interface HistoryTurn {
  by: 'AI' | 'USER';
  text: string;
}

/**
 * Reads a body's `conversationHistory` (absent or null: none), as the deprecated agent call and the
 * posted search and answer both send it; each turn's text is bounded like every other text.
 */
export function readHistoryTurns(conversationHistory: unknown, maxTextLength: number): HistoryTurn[] {
  if (conversationHistory === undefined || conversationHistory === null) return [];
  if (!Array.isArray(conversationHistory)) {
    throw new HttpError(400, 'conversationHistory must be an array', {}, 'BAD_REQUEST_BODY');
  }
  return conversationHistory.map((turn: unknown, i) => {
    const t = turn as Record<string, unknown> | null;
    if (
      typeof t !== 'object' ||
      t === null ||
      (t.by !== 'AI' && t.by !== 'USER') ||
      typeof t.text !== 'string'
    ) {
      throw new HttpError(
        400,
        `conversationHistory[${i}] must be {by: 'AI' | 'USER', text: string}`,
        {},
        'BAD_REQUEST_BODY',
      );
    }
    if (t.text.length > maxTextLength) {
      throw new HttpError(
        400,
        `conversationHistory[${i}].text is longer than ${maxTextLength} characters`,
        {},
        'TEXT_TOO_LONG',
      );
    }
    return { by: t.by, text: t.text };
  });
}
