// Ask an agent with the deprecated response call: one request, one JSON answer. The service keeps no
// conversation state, so earlier turns travel in `conversationHistory`; `contextValues` personalise it.
// New code should prefer the streaming call (stream-agent.ts).
import Dataworkz from '@dataworkz/client';
import { excerpt, field, heading } from '../support/output.js';
import { chooseAgentId, firstLlmId } from '../support/target.js';

const dw = new Dataworkz();
const agentId = await chooseAgentId(dw);
const llmProviderId = firstLlmId(await dw.agents.llmProviders(), 'the account');

const response = await dw.agents.respond(agentId, {
  userText: 'What is the status of order 1001?',
  llmProviderId,
  conversationHistory: [
    { by: 'USER', text: 'Hello, I have a question about an order.' },
    { by: 'AI', text: 'Of course. Which order do you mean?' },
  ],
  contextValues: { userName: 'Ada' },
});

// A failed execution (`data.status: FAILED`) rejects with QueryFailedError, as search and answer do.
const { data } = response;
heading(`${data.systemName} answered (${response.status})`);
field('question', data.question);
field('scenario', data.scenario);
field('answer', excerpt(data.answer));
field('questionUuid', data.questionUuid);

// Present only when the agent has a structured response configured.
if (data.structuredResponse) {
  heading('Structured response');
  field('responseType', data.structuredResponse.responseType);
  field('structuredOutput', data.structuredResponse.structuredOutput);
}
