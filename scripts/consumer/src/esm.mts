// A user's program as an ES module (`import`), written from the packages' README quick starts.
// scripts/test-consumer.mjs installs the packed tarballs with npm, compiles this file with the settings
// of ../tsconfig.json and runs it against the packed emulator's bin (DATAWORKZ_BASE_URL and
// DATAWORKZ_API_KEY). scripts/registry-round-trip.mjs installs the packages by name from a registry
// and runs it with neither set: the program then starts the emulator itself (startEmulator).
// commonjs.cts is the same program in CommonJS.
import { strict as assert } from 'node:assert';
import { getAgentCard, streamAgent } from '@dataworkz/a2a';
import Dataworkz, { AuthenticationError, filter } from '@dataworkz/client';
import { ContextValuesError, findProvidedValuesUri } from '@dataworkz/context-values';
import { startEmulator } from '@dataworkz/emulator';

// The deployment named by the environment, or else an emulator on a free port of this machine.
const emulator = process.env.DATAWORKZ_BASE_URL ? undefined : await startEmulator();
const dw = new Dataworkz({
  baseUrl: emulator?.url ?? process.env.DATAWORKZ_BASE_URL,
  apiKey: emulator?.apiKey ?? process.env.DATAWORKZ_API_KEY,
});

// QnA: list the systems, search one, answer with a filter.
const systems = await dw.qna.list(); // { [systemId]: name }
const [systemId] = Object.keys(systems);
const [llmProviderId] = Object.keys(await dw.qna.llmProviders(systemId));
const found = await dw.qna.search(systemId, { query: 'reset password', filter: filter.eq('version', '2.1') });
const answer = await dw.qna.answer(systemId, {
  questionText: 'How do I reset my password?',
  llmProviderId,
  filter: filter.in('version', ['2.0', '2.1']),
});
assert.ok(found.searchResultsList?.length, 'search found nothing');
assert.ok(answer.answer, 'the answer is empty');
console.log(
  `  qna: ${Object.keys(systems).length} systems; ${found.searchResultsList.length} search results; answer with ${answer.context?.length} contexts`,
);

// Agents: stream an answer with context values, then a follow-up turn in the same conversation.
const agents = await dw.agents.list();
const agentId = agents.find((agent) => agent.name === 'Order Status Assistant')?.agentId;
if (agentId === undefined) throw new Error('The deployment has no Order Status Assistant.');
const extensionUri = findProvidedValuesUri(await getAgentCard(dw, agentId));
const run = streamAgent(dw, agentId, { text: 'Where is order 1001?', contextValues: { userName: 'Ada' } });
let updates = 0;
for await (const event of run) {
  if (event.type === 'task-update') updates += 1; // SVC_STATUS_UPDATE data
}
const { answer: first, state, contextId } = await run.finalAnswer();
assert.match(first, /^Hi Ada!/, 'the context values did not reach the agent');
const next = await streamAgent(dw, agentId, { text: 'And order 1002?', contextId }).finalAnswer();
assert.equal(next.contextId, contextId, 'the follow-up turn left the conversation');
console.log(
  `  a2a: ${state} after ${updates} task updates (extension ${extensionUri}); follow-up ${next.state} in the same context`,
);

// Errors by class: a wrong API key, and a context value JSON cannot carry.
try {
  await new Dataworkz({ baseUrl: dw.baseUrl, apiKey: 'not-the-key' }).qna.list();
  assert.fail('a wrong API key was accepted');
} catch (error) {
  if (!(error instanceof AuthenticationError)) throw error;
}
try {
  streamAgent(dw, agentId, { text: 'Hi', contextValues: { visits: Number.NaN } });
  assert.fail('NaN was accepted as a context value');
} catch (error) {
  if (!(error instanceof ContextValuesError)) throw error;
}
console.log('  errors: AuthenticationError and ContextValuesError caught by class');
await emulator?.close();
