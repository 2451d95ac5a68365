import { orderStatusAgent, orderStatusAgentId, orderStatusLlmId } from './agents/order-status.js';
import { policyHelperAgent, policyHelperAgentId } from './agents/policy-helper.js';
import { productAdvisorAgent, productAdvisorAgentId, productAdvisorLlmId } from './agents/product-advisor.js';
import { stableId } from './data/ids.js';
import { productDocsSystem, productDocsSystemId } from './data/product-docs.js';
import { supportDocumentId, supportKbSystem, supportKbSystemId } from './data/support-kb.js';
import type { Dataset } from './dataset.js';

const accountDefaultLlmId = stableId('llms/account/default');
const accountAlternateLlmId = stableId('llms/account/alternate');
const productDocsLlmId = stableId('llms/system/product-docs');
const supportKbLlmId = stableId('llms/system/support-kb');

/** Stable ids of the seeded content, for tests and examples. */
export const seed = {
  llms: {
    /** The account's default LLM (`gpt-4o`). */
    accountDefault: accountDefaultLlmId,
    /** A second account LLM (`claude-3-5-haiku`). */
    accountAlternate: accountAlternateLlmId,
    /** The Order Status Assistant's own LLM. */
    orderStatusAgent: orderStatusLlmId,
    /** The Product Advisor's own LLM. */
    productAdvisorAgent: productAdvisorLlmId,
    /** LLMs configured only for one QnA system. */
    productDocsSystem: productDocsLlmId,
    supportKbSystem: supportKbLlmId,
  },
  agents: {
    /** Joins the customer table, the orders API and the returns policy; has a structured response. */
    orderStatus: { agentId: orderStatusAgentId, name: orderStatusAgent.name },
    /** Answers from the product manuals; no structured response. */
    productAdvisor: { agentId: productAdvisorAgentId, name: productAdvisorAgent.name },
    /** Has no LLM of its own: it needs `llmId` or the account default. */
    policyHelper: { agentId: policyHelperAgentId, name: policyHelperAgent.name },
  },
  systems: {
    productDocs: { systemId: productDocsSystemId, name: 'Product Documentation' },
    supportKb: { systemId: supportKbSystemId, name: 'Customer Support Knowledge Base' },
  },
  documents: {
    /** A PDF in the support knowledge base. */
    returnsPolicy: {
      systemId: supportKbSystemId,
      documentId: supportDocumentId('returns-policy'),
      format: 'pdf',
    },
    /** A Word document in the support knowledge base. */
    refunds: { systemId: supportKbSystemId, documentId: supportDocumentId('refunds'), format: 'docx' },
    /** A markdown document in the support knowledge base. */
    shippingTimes: {
      systemId: supportKbSystemId,
      documentId: supportDocumentId('shipping-times'),
      format: 'md',
    },
    /** A plain-text document in the support knowledge base. */
    damagedDelivery: {
      systemId: supportKbSystemId,
      documentId: supportDocumentId('damaged-delivery'),
      format: 'txt',
    },
    /** A web page (a `link` result) in the support knowledge base. */
    supportHours: {
      systemId: supportKbSystemId,
      documentId: supportDocumentId('support-hours'),
      format: 'html',
    },
    /** Password reset in the Nimbus 2.1 manual (product documentation). */
    passwordReset21: {
      systemId: productDocsSystemId,
      documentId: stableId('product-docs/password-reset/2.1'),
      format: 'pdf',
    },
  },
  /** Order numbers the orders API knows (1001 shipped, 1002 and 1006 delivered, 1003 processing, 1005 cancelled). */
  orders: ['1001', '1002', '1003', '1004', '1005', '1006'],
  /** Customer ids of the CRM's customer table (C-100 is Ada Lovelace, a Gold member). */
  customers: ['C-100', 'C-101', 'C-102', 'C-103'],
} as const;

export interface SeedOptions {
  /** Leave the account without a default LLM (the no-LLM failure of the stream). */
  noDefaultLlm?: boolean;
}

/** The seeded account: three agents, two QnA systems over 58 documents, LLM maps at every level. */
export function seededDataset(options: SeedOptions = {}): Dataset {
  const accountLlms = { [accountDefaultLlmId]: 'gpt-4o', [accountAlternateLlmId]: 'claude-3-5-haiku' };
  return {
    account: { llms: accountLlms, ...(options.noDefaultLlm ? {} : { defaultLlmId: accountDefaultLlmId }) },
    agents: [orderStatusAgent, productAdvisorAgent, policyHelperAgent],
    systems: [
      productDocsSystem({ [accountDefaultLlmId]: 'gpt-4o', [productDocsLlmId]: 'llama-3.1-70b' }),
      supportKbSystem({ [accountDefaultLlmId]: 'gpt-4o', [supportKbLlmId]: 'mistral-large' }),
    ],
  };
}
