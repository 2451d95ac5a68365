import type { AgentDefinition } from './model.js';

const greeting = /^\s*(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening|day))\b[\s,!.]*/i;
const thanks = /^\s*(thanks|thank you|cheers|much appreciated)\b[\s,!.]*/i;
const smallTalk =
  /^(there|everyone|all|team|so much|a lot|very much)?[\s,!.]*(how are you( doing)?|how'?s it going|what'?s up)?[\s,!.?]*$/i;
const askingAboutAgent =
  /\b(what can you (do|help)|what do you do|what are you|who are you|how can you help|what can i ask|what are your (skills|capabilities))\b/i;

/**
 * Text no scenario should try to answer: a greeting or thanks with nothing else asked, or a
 * question about the agent itself. Checked before scenario keywords, so "what can you do?" does
 * not become a product question while "Hi, where is order 1001?" still finds its scenario.
 */
export function isSmallTalk(text: string): boolean {
  if (askingAboutAgent.test(text)) return true;
  const rest = text.replace(greeting, '').replace(thanks, '');
  return rest !== text && smallTalk.test(rest);
}

const listed = (items: string[], last: 'and' | 'or') =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}` : (items[0] ?? '');

/** How an agent starts its answer to text outside its scenarios: a greeting, thanks, or that it cannot help. */
function openerFor(agent: AgentDefinition, text: string): string {
  if (thanks.test(text)) return `You're welcome! I'm the ${agent.name}.`;
  if (greeting.test(text) || askingAboutAgent.test(text)) return `Hello! I'm the ${agent.name}.`;
  return `Sorry, I can't help with that. I'm the ${agent.name}.`;
}

/** What an agent that asks back says to text outside its scenarios: which of them is meant. */
export function scenarioQuestion(agent: AgentDefinition, text: string): string {
  const names = agent.scenarios.map((s) => s.name.toLowerCase());
  return `${openerFor(agent, text)} Which of these do you need: ${listed(names, 'or')}?`;
}

/** What an LLM agent says to text outside its scenarios: who it is and what it can do, with an example. */
export function capabilityAnswer(agent: AgentDefinition, text: string): string {
  const example = agent.scenarios.find((s) => s.examples.length > 0)?.examples[0];
  return `${openerFor(agent, text)} I can ${listed(
    agent.scenarios.map((s) => s.offer),
    'and',
  )}.${example ? ` For example, ask: "${example}"` : ''}`;
}
