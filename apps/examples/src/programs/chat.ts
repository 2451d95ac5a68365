// Chat over a QnA system's corpus: each question is posted with the conversation so far, so a
// follow-up such as "and in version 2.0?" is answered in the context of the earlier turns.
// Posting a conversation goes beyond the service's published contract; deployments accept it.
import Dataworkz, { type ConversationMessage } from '@dataworkz/client';
import { excerpt, field, heading } from '../support/output.js';
import { chooseSystemId, firstLlmId } from '../support/target.js';

const dw = new Dataworkz();
const systemId = await chooseSystemId(dw);
const llmProviderId = firstLlmId(await dw.qna.llmProviders(systemId), 'this QnA system');

const questions = [
  'When does the password reset link expire in Nimbus 1.2?',
  'and in version 2.0?',
  'what about version 2.1?',
];

const conversationHistory: ConversationMessage[] = [];
for (const questionText of questions) {
  // The first question goes out as a plain GET; once there is history, the call posts it.
  const answer = await dw.qna.answer(systemId, {
    questionText,
    llmProviderId,
    ...(conversationHistory.length ? { conversationHistory } : {}),
  });
  const text = answer.answer.trim();
  heading(`USER: ${questionText}`);
  field('AI', excerpt(text, 300));
  field('filters', answer.appliedFilters ?? 'none');
  conversationHistory.push({ by: 'USER', text: questionText }, { by: 'AI', text });
}
