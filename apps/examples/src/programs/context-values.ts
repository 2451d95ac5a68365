// Context values: variables the agent can use, sent through the provided-values A2A extension. The
// extension's URI is read from the agent card, so `contextValues` is all a caller passes.
import { getAgentCard, streamAgent } from '@dataworkz/a2a';
import Dataworkz from '@dataworkz/client';
import {
  assertContextValues,
  ContextValuesError,
  findProvidedValuesUri,
  providedValuesPart,
} from '@dataworkz/context-values';
import { excerpt, field, heading } from '../support/output.js';
import { chooseAgentId } from '../support/target.js';

const dw = new Dataworkz();
const agentId = await chooseAgentId(dw);
const contextValues = { userName: 'Ada', tier: 'gold', preferences: { language: 'en' } };

// Where the extension lives on this deployment: the card lists it under capabilities.extensions.
const card = await getAgentCard(dw, agentId);
const extensionUri = findProvidedValuesUri(card);
heading('The provided-values extension');
field('URI', extensionUri ?? 'not advertised by this agent');
// What goes on the wire: a data part marked with the URI (plus the URI in X-A2A-Extensions).
if (extensionUri) field('part', JSON.stringify(providedValuesPart(contextValues, extensionUri)));

heading('Without context values');
const plain = await streamAgent(dw, agentId, { text: 'What is the status of order 1001?' }).finalAnswer();
field('answer', excerpt(plain.answer, 300));

heading('With context values');
const personal = await streamAgent(dw, agentId, {
  text: 'What is the status of order 1001?',
  contextValues,
}).finalAnswer();
field('answer', excerpt(personal.answer, 300));

heading('Values must be JSON');
// Values from elsewhere (a session, a form) can be checked before use; streamAgent checks them too.
const fromSession: unknown = { visit: { at: new Date() } };
try {
  assertContextValues(fromSession, 'contextValues');
  throw new Error('A non-JSON context value was accepted.');
} catch (error) {
  if (!(error instanceof ContextValuesError)) throw error;
  // The message names the offending path; a Date should be sent as text (toISOString()).
  field('caught', `${error.name}: ${error.message}`);
}
