import { businessDate, type Order } from '../data/commerce.js';
import { stableId } from '../data/ids.js';
import { supportKbSystemId } from '../data/support-kb.js';
import { addDays, daysAfter, findCustomerKey, findOrderId } from './conversation.js';
import { approvalOptions } from './hitl.js';
import type { AgentDefinition, AgentInput, ScenarioResult } from './model.js';
import type { Toolbox } from './toolbox.js';

const whichOrder = 'Which order do you mean: ';

/** Whether the input answers the agent's question which of several orders is meant. */
function choosing(input: AgentInput): boolean {
  if (input.pending) return input.pending.request.type === 'CLARIFICATION_REQUIRED';
  const lastAnswer = [...input.history].reverse().find((t) => t.by === 'AI');
  return lastAnswer?.text.includes(whichOrder) ?? false;
}

/**
 * The order a return question is about: the one named, else the caller's only order that is not
 * cancelled; several are a question back (which one), as a return applies to one order.
 */
async function orderToReturn(input: AgentInput, tools: Toolbox): Promise<Order | Order[] | undefined> {
  // Answering "which order?", only the reply counts: the question itself names every candidate.
  const orderId = findOrderId(choosing(input) ? { ...input, history: [], contextValues: {} } : input);
  if (orderId) return tools.getOrder(orderId);
  const key = findCustomerKey(input);
  const customer = key ? await tools.getCustomer(key) : undefined;
  if (!customer) return undefined;
  const candidates = (await tools.listOrders(customer.customerId)).filter((o) => o.status !== 'CANCELLED');
  return candidates.length > 1 ? candidates : candidates[0];
}

export const orderStatusAgentId = stableId('agents/order-status');
export const orderStatusLlmId = stableId('llms/agent/order-status');

const askForOrder: ScenarioResult = {
  state: 'input-required',
  answer: 'Which order number do you mean?',
  ask: { type: 'INPUT_REQUIRED', field: 'orderId' },
};

const describe = (o: Order) => `${o.orderId} (${o.item}, ${o.status.toLowerCase()})`;

/** Asks which of a customer's orders the caller means, with the order numbers as the options. */
function askWhichOrder(candidates: Order[]): ScenarioResult {
  const listed = candidates.map(describe);
  return {
    state: 'input-required',
    answer: `${whichOrder}${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}?`,
    ask: { type: 'CLARIFICATION_REQUIRED', field: 'orderId', options: candidates.map((o) => o.orderId) },
  };
}

const approvalQuestion = /Shall I cancel order (\d+)\?/;

/**
 * The order whose cancellation waits for the caller's approval: the task's open request, else (the
 * stateless call) the agent's last answer when it asked that question.
 */
function cancellationAwaited(input: AgentInput): string | undefined {
  const { pending } = input;
  if (pending) {
    const orderId = pending.request.args?.orderId;
    return pending.request.type === 'APPROVAL_REQUIRED' && typeof orderId === 'string' ? orderId : undefined;
  }
  const lastAnswer = [...input.history].reverse().find((t) => t.by === 'AI');
  return lastAnswer ? approvalQuestion.exec(lastAnswer.text)?.[1] : undefined;
}

function askToCancel(order: Order, who: string, lead = ''): ScenarioResult {
  return {
    state: 'input-required',
    answer: `${lead}Order ${order.orderId} (${order.item}${who}, placed on ${order.orderedDate}) has not shipped yet. Shall I cancel order ${order.orderId}?`,
    ask: {
      type: 'APPROVAL_REQUIRED',
      options: approvalOptions,
      toolName: 'orders.cancelOrder',
      args: { orderId: order.orderId },
    },
  };
}

/** Why an order that is not being prepared any more cannot be cancelled, and what the caller can do. */
function notCancellable(order: Order): string {
  switch (order.status) {
    case 'SHIPPED':
      return `Order ${order.orderId} shipped on ${order.shippedDate} with ${order.carrier}, so it can no longer be cancelled; once it arrives (expected ${order.expectedDate}) you can return it.`;
    case 'DELIVERED':
      return `Order ${order.orderId} was delivered on ${order.deliveredDate}, so it cannot be cancelled; ask me whether it can still be returned.`;
    default:
      return `Order ${order.orderId} is already cancelled.`;
  }
}

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
    'Answers questions about orders by joining the customer table, the orders API and the returns policy, and cancels orders not yet shipped once the caller approves.',
  createdByName: 'Dana Reyes',
  createdDate: '2026-03-14 09:21:07.412',
  llms: { [orderStatusLlmId]: 'gpt-4o-mini' },
  llmId: orderStatusLlmId,
  structuredResponse: true,
  asksWhenUnmatched: true,
  scenarios: [
    {
      id: 'order-status',
      name: 'Order status',
      description: 'Where an order is and when it arrives.',
      tags: ['orders', 'shipping'],
      examples: ['What is the status of order 1001?', 'Where is my order?'],
      offer: 'tell you where an order is and when it arrives',
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
                : `Order ${order.orderId}${who} was cancelled${order.cancelledDate ? ` on ${order.cancelledDate}` : ''}.`;
        return {
          state: 'completed',
          answer,
          structuredOutput: {
            orderId: order.orderId,
            status: order.status,
            ...(order.expectedDate ? { expectedDelivery: order.expectedDate } : {}),
            ...(order.deliveredDate ? { deliveredDate: order.deliveredDate } : {}),
            ...(order.cancelledDate ? { cancelledDate: order.cancelledDate } : {}),
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
      offer: 'check whether an order can still be returned',
      keywords: ['return', 'refund', 'send back', 'eligible'],
      async run(input, tools) {
        const order = await orderToReturn(input, tools);
        if (!order) return askForOrder;
        if (Array.isArray(order)) return askWhichOrder(order);
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
      offer: "list a customer's orders",
      keywords: ['orders', 'list', 'history', 'purchases'],
      async run(input, tools) {
        const key = findCustomerKey(input);
        if (!key)
          return {
            state: 'input-required',
            answer: 'Which customer do you mean? Give an email address.',
            ask: { type: 'INPUT_REQUIRED', field: 'email' },
          };
        const customer = await tools.getCustomer(key);
        if (!customer) return { state: 'completed', answer: 'No customer matches that email address or id.' };
        const list = await tools.listOrders(customer.customerId);
        const lines = list.map(describe).join(', ');
        return {
          state: 'completed',
          answer: `${customer.name} has ${list.length} order${list.length === 1 ? '' : 's'}: ${lines}.`,
          structuredOutput: { customerId: customer.customerId, orderIds: list.map((o) => o.orderId) },
        };
      },
    },
    {
      id: 'cancel-order',
      name: 'Cancel an order',
      description: 'Cancels an order that has not shipped yet, once the caller approves.',
      tags: ['orders', 'cancellation'],
      examples: ['Please cancel order 1003', 'I want to cancel my order'],
      offer: 'cancel an order that has not shipped yet',
      keywords: ['cancel', 'call off', 'stop the order', 'withdraw'],
      async run(input, tools) {
        const awaited = cancellationAwaited(input);
        if (awaited && input.decision === 'reject') {
          return {
            state: 'completed',
            answer: `Understood: order ${awaited} stays as it is; nothing was changed.`,
            structuredOutput: { orderId: awaited, cancelled: false },
          };
        }
        if (awaited && input.decision === 'approve') {
          const order = await tools.cancelOrder(awaited);
          if (!order) return { state: 'completed', answer: `There is no order ${awaited}.` };
          if (order.cancelledDate === undefined) return { state: 'completed', answer: notCancellable(order) };
          return {
            state: 'completed',
            answer: `Order ${order.orderId} (${order.item}) is cancelled as of ${order.cancelledDate}; nothing will be shipped or charged.`,
            structuredOutput: { orderId: order.orderId, status: order.status, cancelled: true },
          };
        }
        if (awaited) {
          const order = await tools.getOrder(awaited);
          if (order?.status === 'PROCESSING') return askToCancel(order, '', 'Please answer yes or no. ');
        }
        const orderId = findOrderId(input);
        if (!orderId) return askForOrder;
        const order = await tools.getOrder(orderId);
        if (!order) return { state: 'completed', answer: `There is no order ${orderId}.` };
        if (order.status !== 'PROCESSING') return { state: 'completed', answer: notCancellable(order) };
        const customer = await tools.getCustomer({ customerId: order.customerId });
        return askToCancel(order, customer ? ` for ${customer.name}` : '');
      },
    },
  ],
};
