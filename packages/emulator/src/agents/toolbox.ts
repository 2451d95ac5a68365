import { type Customer, customers, type Order } from '../data/commerce.js';
import type { QnaSystem } from '../data/model.js';
import { sha1Hex } from '../neutral/crypto.js';
import type { FilterExpression } from '../qna/filter.js';
import type { Hit } from '../qna/hit.js';
import type { SystemRetriever } from '../qna/retriever-on-demand.js';
import type { OrderBook } from './order-book.js';
import type { AgentStep } from './step.js';

export interface KnowledgeSource {
  system: QnaSystem;
  retriever: SystemRetriever;
}

/** What the tools read and change: one emulator's QnA systems and orders. */
export interface ToolSources {
  knowledge: Map<string, KnowledgeSource>;
  orders: OrderBook;
}

/**
 * The tools agents call: the CRM's customer table, the orders API, the ticket system and the
 * QnA systems. Every call is reported as a step before it runs.
 */
export class Toolbox {
  readonly calls: string[] = [];
  private readonly knowledge: Map<string, KnowledgeSource>;
  private readonly orders: OrderBook;

  constructor(
    sources: ToolSources,
    private readonly report: (step: AgentStep) => Promise<void>,
  ) {
    this.knowledge = sources.knowledge;
    this.orders = sources.orders;
  }

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
    return this.orders.get(orderId);
  }

  async listOrders(customerId: string): Promise<Order[]> {
    await this.call('orders.listOrders', customerId, `Listing the orders of customer ${customerId}`);
    return this.orders.list(customerId);
  }

  async cancelOrder(orderId: string): Promise<Order | undefined> {
    await this.call('orders.cancelOrder', orderId, `Cancelling order ${orderId} in the orders API`);
    return this.orders.cancel(orderId);
  }

  async searchKnowledge(
    systemId: string,
    query: string,
    filter: FilterExpression = { clauses: [] },
  ): Promise<Hit[]> {
    const source = this.knowledge.get(systemId);
    await this.call('qna.search', query, `Searching ${source?.system.name ?? 'a QnA system'} for "${query}"`);
    return source ? await source.retriever.search(query, filter, 3) : [];
  }

  async createTicket(customerId: string, summary: string): Promise<string> {
    await this.call('tickets.create', customerId, `Opening a support ticket for customer ${customerId}`);
    // The same ticket number for the same report, on any runtime.
    const digest = sha1Hex(`${customerId}:${summary}`);
    return `T-${(Number.parseInt(digest.slice(0, 8), 16) % 90000) + 10000}`;
  }
}
