// Ask a QnA system a question: the answer comes with the contexts it was composed from.
import Dataworkz from '@dataworkz/client';
import { excerpt, field, heading, item } from '../support/output.js';
import { chooseSystemId, firstLlmId } from '../support/target.js';

const dw = new Dataworkz();
const systemId = await chooseSystemId(dw);
// The LLM must be one configured for this system.
const llmProviderId = firstLlmId(await dw.qna.llmProviders(systemId), 'this QnA system');

const result = await dw.qna.answer(systemId, {
  questionText: 'How much memory does the installer need?',
  llmProviderId,
});

heading(`Answer from ${result.systemName ?? systemId} (${result.status ?? '?'})`);
field('question', result.question ?? '');
field('answer', excerpt(result.answer ?? '', 400));

heading(`${result.context?.length ?? 0} cited contexts`);
for (const [index, context] of (result.context ?? []).entries()) {
  item(`[${index + 1}] ${context.source ?? ''} ${context.link ?? ''}`);
  item(`    ${excerpt(context.data ?? '', 110)}`);
}
