// List the QnA systems (RAG applications) of the account, then the details and LLM configurations of each.
import Dataworkz from '@dataworkz/client';
import { field, heading, item } from '../support/output.js';

const dw = new Dataworkz();

// The system map: system id -> name.
const systems = await dw.qna.list();
heading(`${Object.keys(systems).length} QnA systems`);
for (const [systemId, name] of Object.entries(systems)) item(`${name} (${systemId})`);

for (const systemId of Object.keys(systems)) {
  const [details, llms] = await Promise.all([dw.qna.get(systemId), dw.qna.llmProviders(systemId)]);
  heading(details.name ?? systemId);
  field('mode', details.mode ?? '?');
  field('status', details.status ?? '?');
  field('database', details.database ?? '?');
  field('dimensions', String(details.dimensions ?? '?'));
  field('created', `${details.createdDate ?? '?'} by ${details.createdBy ?? '?'}`);
  field('LLMs', Object.values(llms).join(', '));
}
