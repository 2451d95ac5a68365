import { type Customer, customers, type Order, orders } from '../data/commerce.js';
import type { QnaSystem } from '../data/model.js';
import { sha1Hex } from '../neutral/crypto.js';
import type { FilterExpression } from '../qna/filter.js';
import type { Hit, Retriever } from '../qna/retriever.js';
import type { AgentStep } from './model.js';

export interface KnowledgeSource {
  system: QnaSystem;
  retriever: Retriever;
}

/**
 * The tools agents call: the CRM's customer table, the orders API, the ticket system and the
 * QnA systems. Every call is reported as a step before it runs.
 */
export class Toolbox {
  readonly calls: string[] = [];

  constructor(
    private readonly knowledge: Map<string, KnowledgeSource>,
    private readonly report: (step: AgentStep) => Promise<void>,
  ) {}

  private async call(tool: string, args: string, message: string): Promise<void> {
    this.calls.push(`${tool}(${args})`);
    await this.report({ type: 'TOOL_CALL', tool, message });
  }

  async getCustomer(query: { customerId?: string; email?: string }): Promise<Customer | undefined> {
    const key = query.customerId ?? query.email ?? '';
    await this.call('crm.getCustomer', key, `Looking up customer ${key} in the customer table`);
    return customers.find(
      (c) =>
        c.customerId === query.customerId ||
        (query.email && c.email.toLowerCase() === query.email.toLowerCase()),
    );
  }

  async getOrder(orderId: string): Promise<Order | undefined> {
    await this.call('orders.getOrder', orderId, `Fetching order ${orderId} from the orders API`);
    return orders.find((o) => o.orderId === orderId);
  }

  async listOrders(customerId: string): Promise<Order[]> {
    await this.call('orders.listOrders', customerId, `Listing the orders of customer ${customerId}`);
    return orders.filter((o) => o.customerId === customerId);
  }

  async searchKnowledge(
    systemId: string,
    query: string,
    filter: FilterExpression = { clauses: [] },
  ): Promise<Hit[]> {
    const source = this.knowledge.get(systemId);
    await this.call('qna.search', query, `Searching ${source?.system.name ?? 'a QnA system'} for "${query}"`);
    return source ? source.retriever.search(query, filter, 3) : [];
  }

  async createTicket(customerId: string, summary: string): Promise<string> {
    await this.call('tickets.create', customerId, `Opening a support ticket for customer ${customerId}`);
    const digest = sha1Hex(`${customerId}:${summary}`);
    return `T-${(Number.parseInt(digest.slice(0, 8), 16) % 90000) + 10000}`;
  }
}
