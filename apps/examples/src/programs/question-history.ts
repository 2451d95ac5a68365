// The question history of a QnA system: the questions asked, by month, and one of them read back
// with its answer and quality scores. Beyond the service's published contract; the vendor's own
// QnA clients use it.
import Dataworkz from '@dataworkz/client';
import { excerpt, field, heading, item } from '../support/output.js';
import { chooseSystemId, firstLlmId } from '../support/target.js';

const dw = new Dataworkz();
const systemId = await chooseSystemId(dw);
const llmProviderId = firstLlmId(await dw.qna.llmProviders(systemId), 'this QnA system');

// Ask something, so the history holds at least this question.
const asked = await dw.qna.answer(systemId, { questionText: 'How do I take a backup?', llmProviderId });

const history = await dw.qna.history(systemId);
for (const [month, questions] of Object.entries(history)) {
  heading(month);
  for (const [questionId, text] of Object.entries(questions)) item(`${questionId}  ${text}`);
}

// `llm_response` arrives as JSON text; the client parses it into the answer type.
const question = await dw.qna.question(systemId, asked.questionUuid);
heading(`Question ${asked.questionUuid}`);
field('answer', excerpt(question.llm_response.answer, 200));
field('model', question.llm_model ?? 'unknown');
for (const [name, score] of Object.entries(question)) {
  if (typeof score === 'number') field(name, score);
}
