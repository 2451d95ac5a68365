import { businessDate } from '../data/commerce.js';
import { stableId } from '../data/ids.js';
import { supportKbSystemId } from '../data/support-kb.js';
import { addDays, daysAfter, findCustomerKey, findOrderId } from './conversation.js';
import type { AgentDefinition, AgentInput, ScenarioResult } from './model.js';
import type { Toolbox } from './toolbox.js';

export const orderStatusAgentId = stableId('agents/order-status');
export const orderStatusLlmId = stableId('llms/agent/order-status');

const askForOrder: ScenarioResult = {
  state: 'input-required',
  answer: 'Which order number do you mean?',
};

async function resolveOrder(input: AgentInput, tools: Toolbox) {
  const orderId = findOrderId(input);
  if (orderId) return tools.getOrder(orderId);
  const key = findCustomerKey(input);
  if (!key) return undefined;
  const customer = await tools.getCustomer(key);
  if (!customer) return undefined;
  const list = await tools.listOrders(customer.customerId);
  return list.sort((a, b) => b.orderedDate.localeCompare(a.orderedDate))[0];
}

export const orderStatusAgent: AgentDefinition = {
  agentId: orderStatusAgentId,
  name: 'Order Status Assistant',
  description:
    'Answers questions about orders by joining the customer table, the orders API and the returns policy.',
  createdByName: 'Dana Reyes',
  createdDate: '2026-03-14 09:21:07.412',
  llms: { [orderStatusLlmId]: 'gpt-4o-mini' },
  llmId: orderStatusLlmId,
  structuredResponse: true,
  scenarios: [
    {
      id: 'order-status',
      name: 'Order status',
      description: 'Where an order is and when it arrives.',
      tags: ['orders', 'shipping'],
      examples: ['What is the status of order 1001?', 'Where is my order?'],
      keywords: ['status', 'where', 'track', 'shipped', 'arriv', 'deliver', 'when'],
      async run(input, tools) {
        const order = await resolveOrder(input, tools);
        if (!order) {
          const orderId = findOrderId(input);
          return orderId ? { state: 'completed', answer: `There is no order ${orderId}.` } : askForOrder;
        }
        const customer = await tools.getCustomer({ customerId: order.customerId });
        const who = customer ? ` for ${customer.name}` : '';
        const answer =
          order.status === 'SHIPPED'
            ? `Order ${order.orderId}${who} shipped on ${order.shippedDate} with ${order.carrier} and is expected on ${order.expectedDate}.`
            : order.status === 'DELIVERED'
              ? `Order ${order.orderId}${who} was delivered on ${order.deliveredDate}.`
              : order.status === 'PROCESSING'
                ? `Order ${order.orderId}${who} was placed on ${order.orderedDate} and is being prepared for shipping.`
                : `Order ${order.orderId}${who} was cancelled.`;
        return {
          state: 'completed',
          answer,
          structuredOutput: {
            orderId: order.orderId,
            status: order.status,
            ...(order.expectedDate ? { expectedDelivery: order.expectedDate } : {}),
            ...(order.deliveredDate ? { deliveredDate: order.deliveredDate } : {}),
          },
        };
      },
    },
    {
      id: 'return-eligibility',
      name: 'Return eligibility',
      description:
        'Whether an order can still be returned, from its delivery date, the customer tier and the returns policy.',
      tags: ['orders', 'returns'],
      examples: ['Can I return order 1002?', 'Is order 1006 still eligible for a refund?'],
      keywords: ['return', 'refund', 'send back', 'eligible'],
      async run(input, tools) {
        const order = await resolveOrder(input, tools);
        if (!order) return askForOrder;
        const customer = await tools.getCustomer({ customerId: order.customerId });
        const policy = (await tools.searchKnowledge(supportKbSystemId, 'returns policy days of delivery'))
          .map((h) => h.passage.text)
          .join(' ');
        if (!order.deliveredDate) {
          return {
            state: 'completed',
            answer: `Order ${order.orderId} has not been delivered yet (status ${order.status}); it can be returned after delivery.`,
            structuredOutput: { orderId: order.orderId, status: order.status, eligible: false },
          };
        }
        const gold = customer?.tier === 'Gold' ? daysAfter(policy, /Gold members may return/) : undefined;
        const days = gold ?? daysAfter(policy, /return hardware within/) ?? 30;
        const until = addDays(order.deliveredDate, days);
        const eligible = until >= businessDate;
        const tier = customer ? ` As a ${customer.tier} customer, ${customer.name} has ${days} days.` : '';
        const answer = `Order ${order.orderId} was delivered on ${order.deliveredDate}.${tier} ${
          eligible ? `It can be returned until ${until}.` : `The return window closed on ${until}.`
        }`;
        return {
          state: 'completed',
          answer,
          structuredOutput: { orderId: order.orderId, status: order.status, eligible, returnBy: until },
        };
      },
    },
    {
      id: 'customer-orders',
      name: 'Customer orders',
      description: "Lists a customer's orders.",
      tags: ['orders', 'customers'],
      examples: ['Which orders do I have?', 'List the orders of ada@example.com'],
      keywords: ['orders', 'list', 'history', 'purchases'],
      async run(input, tools) {
        const key = findCustomerKey(input);
        if (!key)
          return { state: 'input-required', answer: 'Which customer do you mean? Give an email address.' };
        const customer = await tools.getCustomer(key);
        if (!customer) return { state: 'completed', answer: 'No customer matches that email address or id.' };
        const list = await tools.listOrders(customer.customerId);
        const lines = list.map((o) => `${o.orderId} (${o.item}, ${o.status.toLowerCase()})`).join(', ');
        return {
          state: 'completed',
          answer: `${customer.name} has ${list.length} order${list.length === 1 ? '' : 's'}: ${lines}.`,
          structuredOutput: { customerId: customer.customerId, orderIds: list.map((o) => o.orderId) },
        };
      },
    },
  ],
};
