import type { ChatTurn } from './conversation.js';
import { versionMention } from './filter.js';
import { normaliseTerm } from './terms.js';

/** Words that open a question continuing the previous one ("and in version 2.0?", "what about ..."). */
const continuation = /^\s*(?:and|or|but|also|so|then|what about|how about)\b/i;

/** Words that point back at something said earlier ("how long does that take?"). */
const pointsBack = /\b(?:it|its|that|this|these|those|they|them|there|one|ones|same)\b/i;

/** Earlier user turns a follow-up may draw on, at most. */
const maxEarlierTurns = 3;

function contentTerms(text: string): number {
  let n = 0;
  for (const word of text.split(/[^\p{L}\p{N}]+/u)) if (word && normaliseTerm(word)) n += 1;
  return n;
}

/**
 * Whether a question cannot stand alone: it opens with a continuation, points back at something
 * earlier, or holds fewer than two content words.
 */
function isElliptical(text: string): boolean {
  return continuation.test(text) || pointsBack.test(text) || contentTerms(text) < 2;
}

// Not global: `test` on a global expression would carry its position from one call to the next.
const namesVersion = new RegExp(versionMention.source, 'i');

const withoutVersions = (text: string) => text.replace(versionMention, ' ').replace(/\s+/g, ' ').trim();

/**
 * The text retrieval runs on for a question asked within a conversation. A question that stands
 * alone is searched as it is. An elliptical one is searched after the earlier user turns it
 * continues: back to and including the latest one that stands alone (three at most). When the
 * follow-up names a version, the versions the earlier turns named are left out, so "and in version
 * 2.0?" asks about 2.0 only. AI turns are not searched: they hold the earlier answers, not the topic.
 */
export function retrievalQuery(question: string, history: readonly ChatTurn[]): string {
  if (!isElliptical(question)) return question;
  const earlier: string[] = [];
  for (let i = history.length - 1; i >= 0 && earlier.length < maxEarlierTurns; i--) {
    const turn = history[i];
    if (turn?.by !== 'USER' || turn.text.trim() === '') continue;
    earlier.unshift(turn.text.trim());
    if (!isElliptical(turn.text)) break;
  }
  if (earlier.length === 0) return question;
  const context = namesVersion.test(question) ? earlier.map(withoutVersions) : earlier;
  return `${context.join(' ')} ${question.trim()}`;
}
