import { stableId } from '../data/ids.js';
import { productDocsSystemId } from '../data/product-docs.js';
import { composeAnswer } from '../qna/compose-answer.js';
import type { AgentDefinition, AgentInput } from './model.js';

const askForVersions = 'Which two versions should I compare (for example 2.0 and 2.1)?';

/**
 * The versions to compare, and the question they are about: from the text, or, when the text answers
 * the agent's question ("2.0 and 2.1"), with the request it asked about.
 */
function comparisonAsked(input: AgentInput): { versions: string[]; question: string } {
  const inText = versionsIn(input.text);
  const turns = [...input.history].reverse();
  const asked = turns.find((t) => t.by === 'AI')?.text.endsWith(askForVersions) ?? false;
  const request = turns.find((t) => t.by === 'USER')?.text;
  if (inText.length >= 2 || !asked || !request) return { versions: inText, question: input.text };
  return { versions: [...new Set([...versionsIn(request), ...inText])], question: request };
}

// Words of a comparison that say it is one, not what it is about.
const COMPARISON_WORDS = new Set(
  (
    'a against an and are between change changed changes compare comparing did difference differences ' +
    'different do does from how in is it new nimbus of please the to upgrade upgrading version versions vs ' +
    'versus was what whats which with'
  ).split(' '),
);

/** What a comparison is about ("API rate limits"), or '' for "what changed" in general. */
function topicOf(question: string): string {
  return question
    .replace(/\b\d+\.\d+\b/g, ' ')
    .split(/[^A-Za-z0-9-]+/)
    .filter((word) => word !== '' && !/^\d+$/.test(word) && !COMPARISON_WORDS.has(word.toLowerCase()))
    .join(' ');
}

/** The search for one version's side: its release notes in general, or the topic in that version. */
function comparisonQuery(topic: string, version: string): string {
  return topic ? `${topic} in Nimbus ${version}` : `what Nimbus ${version} adds in its release notes`;
}

export const productAdvisorAgentId = stableId('agents/product-advisor');
export const productAdvisorLlmId = stableId('llms/agent/product-advisor');

const versionsIn = (text: string) => [
  ...new Set([...text.matchAll(/\b(\d+\.\d+)\b/g)].map((m) => m[1] ?? '')),
];

export const productAdvisorAgent: AgentDefinition = {
  agentId: productAdvisorAgentId,
  name: 'Product Advisor',
  description:
    'Answers product questions from the Nimbus manuals and compares versions using the release notes.',
  createdByName: 'Tomas Berg',
  createdDate: '2026-02-02 14:05:33.019',
  llms: { [productAdvisorLlmId]: 'claude-sonnet' },
  llmId: productAdvisorLlmId,
  structuredResponse: false,
  scenarios: [
    {
      id: 'version-compare',
      name: 'Compare versions',
      description: 'What changed between two Nimbus versions, from the release notes and manuals of each.',
      tags: ['product', 'release'],
      examples: ['What changed between 2.0 and 2.1?', 'Compare API rate limits in 1.2 and 2.1'],
      offer: 'compare what changed between two Nimbus versions',
      keywords: ['compare', 'changed', 'difference', 'between', 'upgrade', 'new in'],
      async run(input, tools) {
        const { versions, question } = comparisonAsked(input);
        const [from, to] = versions;
        if (!from || !to) {
          return {
            state: 'input-required',
            answer: askForVersions,
            ask: { type: 'INPUT_REQUIRED', field: 'versions' },
          };
        }
        const topic = topicOf(question);
        const parts: string[] = [];
        for (const version of [from, to]) {
          const hits = await tools.searchKnowledge(productDocsSystemId, comparisonQuery(topic, version), {
            clauses: [{ field: 'version', values: [version] }],
          });
          const best = hits[0];
          parts.push(
            best
              ? `In ${version}: ${best.passage.text} (${best.passage.document.title})`
              : `Nothing is documented for ${version}.`,
          );
        }
        return { state: 'completed', answer: parts.join(' ') };
      },
    },
    {
      id: 'product-question',
      name: 'Product question',
      description: 'How to do something in Nimbus, answered from the manuals with citations.',
      tags: ['product', 'documentation'],
      examples: ['How do I reset my password?', 'Which connectors does Nimbus 2.1 support?'],
      offer: 'answer how-to questions about Nimbus from its manuals, with sources',
      keywords: [
        'how',
        'what',
        'which',
        'can i',
        'install',
        'password',
        'reset',
        'export',
        'connector',
        'dashboard',
        'alert',
        'backup',
        'restore',
        'sso',
        'sign-on',
        'rate limit',
        'role',
        'audit',
      ],
      async run(input, tools) {
        const [version] = versionsIn(input.text);
        const hits = await tools.searchKnowledge(
          productDocsSystemId,
          input.text,
          version ? { clauses: [{ field: 'version', values: [version] }] } : { clauses: [] },
        );
        const answer = composeAnswer(input.text, hits);
        if (!answer) {
          return {
            state: 'completed',
            answer:
              'The Nimbus manuals do not cover that question. Ask me how to do something in Nimbus, or what changed between two versions.',
          };
        }
        const sources = hits.map((h, i) => `[${i + 1}] ${h.passage.document.title}`).join('; ');
        return { state: 'completed', answer: `${answer} Sources: ${sources}.` };
      },
    },
  ],
};
