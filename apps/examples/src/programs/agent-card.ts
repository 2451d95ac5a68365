// Fetch an agent's A2A card: what it can do (skills), how to call it (streaming), and the extensions it
// accepts, such as the provided-values extension used for context values.
import Dataworkz from '@dataworkz/client';
import { field, heading, item } from '../support/output.js';
import { chooseAgentId } from '../support/target.js';

const dw = new Dataworkz();
const agentId = await chooseAgentId(dw);

// `agent-card.json` by default; the legacy `agent.json` path is also served by the service.
const card = await dw.agents.card(agentId);
heading(card.name ?? agentId);
field('description', card.description ?? '');
field('version', card.version ?? '?');
field('streaming', String(card.capabilities?.streaming ?? false));

heading('Skills');
for (const skill of card.skills ?? []) {
  item(`${skill.name}: ${skill.description ?? ''}`);
  for (const example of skill.examples ?? []) item(`  e.g. "${example}"`);
}

heading('Extensions');
for (const extension of card.capabilities?.extensions ?? []) {
  item(`${extension.uri}${extension.required ? ' (required)' : ''}`);
}
