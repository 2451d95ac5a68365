import { stableId } from '../data/ids.js';
import { supportKbSystemId } from '../data/support-kb.js';
import { composeAnswer } from '../qna/compose-answer.js';
import { findCustomerKey } from './conversation.js';
import type { AgentDefinition } from './model.js';

export const policyHelperAgentId = stableId('agents/policy-helper');

/** The one seeded agent with no LLM of its own: it runs on the account default. */
export const policyHelperAgent: AgentDefinition = {
  agentId: policyHelperAgentId,
  name: 'Support Policy Helper',
  description:
    "Explains warranty and shipping policies for a customer's tier and region, and opens support tickets.",
  createdByName: 'Priya Natarajan',
  createdDate: '2025-12-01 11:42:55.870',
  llms: {},
  structuredResponse: false,
  scenarios: [
    {
      id: 'warranty',
      name: 'Warranty coverage',
      description:
        "How long the caller's hardware is covered, from their membership tier and the warranty policy.",
      tags: ['warranty', 'policy'],
      examples: ['How long is my warranty?'],
      offer: 'explain how long your hardware is under warranty',
      keywords: ['warrant', 'guarantee', 'covered', 'defect'],
      async run(input, tools) {
        const key = findCustomerKey(input);
        const customer = key ? await tools.getCustomer(key) : undefined;
        const hits = await tools.searchKnowledge(supportKbSystemId, 'warranty coverage years members', {
          clauses: [{ field: 'topic', values: ['warranty'] }],
        });
        const policy = hits.map((h) => h.passage.text).join(' ');
        if (!customer)
          return { state: 'completed', answer: composeAnswer('warranty years covered', hits) ?? policy };
        const years =
          new RegExp(`${customer.tier} (?:customers|members)(?: are covered)? for (\\d+) years?`).exec(
            policy,
          )?.[1] ?? '1';
        return {
          state: 'completed',
          answer: `As a ${customer.tier} member, ${customer.name} is covered for ${years} year${years === '1' ? '' : 's'} from delivery against manufacturing defects.`,
        };
      },
    },
    {
      id: 'shipping',
      name: 'Shipping times',
      description: "How long delivery takes in the caller's region.",
      tags: ['shipping', 'policy'],
      examples: ['How long does shipping take?'],
      offer: 'tell you how long delivery takes to your region',
      keywords: ['shipping', 'ship', 'delivery time', 'how long', 'express'],
      async run(input, tools) {
        const key = findCustomerKey(input);
        const customer = key ? await tools.getCustomer(key) : undefined;
        const hits = await tools.searchKnowledge(supportKbSystemId, 'delivery business days shipping times', {
          clauses: [{ field: 'topic', values: ['shipping'] }],
        });
        const policy = hits.map((h) => h.passage.text).join(' ');
        if (!customer)
          return { state: 'completed', answer: composeAnswer('delivery business days', hits) ?? policy };
        const days = new RegExp(`(\\d+ to \\d+) business days in the ${customer.region}`).exec(policy)?.[1];
        return {
          state: 'completed',
          answer: days
            ? `Delivery to ${customer.region} takes ${days} business days for ${customer.name}.`
            : (composeAnswer('delivery business days', hits) ?? policy),
        };
      },
    },
    {
      id: 'escalation',
      name: 'Open a support ticket',
      description: 'Opens a support ticket for a problem the caller reports.',
      tags: ['support'],
      examples: ['My gateway is broken, please open a ticket'],
      offer: 'open a support ticket for a problem with your hardware',
      keywords: ['ticket', 'escalat', 'broken', 'complain', 'not working', 'faulty'],
      async run(input, tools) {
        const key = findCustomerKey(input);
        if (!key)
          return {
            state: 'input-required',
            answer: 'Which customer is this for? Give an email address.',
            ask: { type: 'INPUT_REQUIRED', field: 'email' },
          };
        const customer = await tools.getCustomer(key);
        if (!customer) return { state: 'completed', answer: 'No customer matches that email address or id.' };
        const ticketId = await tools.createTicket(customer.customerId, input.text);
        return {
          state: 'completed',
          answer: `I opened ticket ${ticketId} for ${customer.name}; support answers within one business day.`,
        };
      },
    },
  ],
};
