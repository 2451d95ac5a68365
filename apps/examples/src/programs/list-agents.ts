// List the agents of the account, the LLM configurations the account offers, and the details of each
// agent as the service reports them.
import Dataworkz from '@dataworkz/client';
import { field, heading, item } from '../support/output.js';

// With no options the client reads DATAWORKZ_BASE_URL and DATAWORKZ_API_KEY from the environment.
const dw = new Dataworkz();

const agents = await dw.agents.list();
heading(`${agents.length} agents`);
for (const agent of agents) {
  item(`${agent.name} (${agent.agentId})`);
  field('    description', agent.description ?? '');
  // scenariosCount arrives as numeric text, as the service sends it.
  field('    scenarios', agent.scenariosCount ?? '?');
  field('    created', `${agent.createdDate ?? '?'} by ${agent.createdByName ?? '?'}`);
}

// The LLM provider map: configuration id -> model name.
const llms = await dw.agents.llmProviders();
heading('LLM configurations of the account');
for (const [llmProviderId, model] of Object.entries(llms)) item(`${llmProviderId}  ${model}`);
