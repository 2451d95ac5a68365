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
    const email = findEmailAddress(text);
    if (email) return { email };
  }
  return undefined;
}

const isWord = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isLocal = (c: number) => isWord(c) || c === 0x2e || c === 0x2b || c === 0x2d; // . + -
const isLabel = (c: number) => isWord(c) || c === 0x2d; // -
const isDomainRest = (c: number) => isWord(c) || c === 0x2e; // .

/**
 * The first `local@label.rest` in a text, as /[\w.+-]+@[\w-]+\.[\w.]+/ finds it, in one pass: that
 * regex backtracks quadratically over long runs of word characters with no `@`.
 */
function findEmailAddress(text: string): string | undefined {
  // Local parts cannot hold `@`, so each `@` has its own run before it and each character is read at most twice.
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && isLocal(text.charCodeAt(start - 1))) start -= 1;
    if (start === at) continue;
    let dot = at + 1;
    while (dot < text.length && isLabel(text.charCodeAt(dot))) dot += 1;
    if (dot === at + 1 || text.charCodeAt(dot) !== 0x2e) continue;
    let end = dot + 1;
    while (end < text.length && isDomainRest(text.charCodeAt(end))) end += 1;
    if (end > dot + 1) return text.slice(start, end);
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
