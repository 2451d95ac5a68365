import type { AgentInput } from './model.js';

/** The order number the conversation is about: the latest text, then earlier turns, then a context value. */
export function findOrderId(input: AgentInput): string | undefined {
  const texts = [input.text, ...input.history.map((t) => t.text).reverse()];
  for (const text of texts) {
    const match = /\b(\d{4,6})\b/.exec(text.replace(/\b20\d\d-\d\d-\d\d\b/g, ''));
    if (match) return match[1];
  }
  const fromContext = input.contextValues.orderId;
  return typeof fromContext === 'string' || typeof fromContext === 'number' ? String(fromContext) : undefined;
}

/** Who the caller is: a `customerId` or `email` context value, or an email address in the text. */
export function findCustomerKey(input: AgentInput): { customerId?: string; email?: string } | undefined {
  const { customerId, email } = input.contextValues;
  if (typeof customerId === 'string' && customerId) return { customerId };
  if (typeof email === 'string' && email) return { email };
  for (const text of [input.text, ...input.history.map((t) => t.text).reverse()]) {
    const match = /[\w.+-]+@[\w-]+\.[\w.]+/.exec(text);
    if (match) return { email: match[0] };
  }
  return undefined;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The first `N days` a policy text states after a phrase (e.g. "Gold members may return ... within 60 days"). */
export function daysAfter(text: string, phrase: RegExp): number | undefined {
  const at = text.search(phrase);
  if (at < 0) return undefined;
  const match = /(\d+) days/.exec(text.slice(at));
  return match ? Number(match[1]) : undefined;
}
