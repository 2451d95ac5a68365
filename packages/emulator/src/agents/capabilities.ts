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

const joinOffers = (offers: string[]) =>
  offers.length > 1 ? `${offers.slice(0, -1).join(', ')} and ${offers.at(-1)}` : (offers[0] ?? '');

/** What an LLM agent says to text outside its scenarios: who it is and what it can do, with an example. */
export function capabilityAnswer(agent: AgentDefinition, text: string): string {
  const opener = thanks.test(text)
    ? `You're welcome! I'm the ${agent.name}.`
    : greeting.test(text) || askingAboutAgent.test(text)
      ? `Hello! I'm the ${agent.name}.`
      : `Sorry, I can't help with that. I'm the ${agent.name}.`;
  const example = agent.scenarios.find((s) => s.examples.length > 0)?.examples[0];
  return `${opener} I can ${joinOffers(agent.scenarios.map((s) => s.offer))}.${
    example ? ` For example, ask: "${example}"` : ''
  }`;
}
