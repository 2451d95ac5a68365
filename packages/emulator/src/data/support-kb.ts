import { stableId } from './ids.js';
import type { CorpusDocument, DocumentFormat, MetadataValue, QnaSystem } from './model.js';

interface Article {
  slug: string;
  title: string;
  format: DocumentFormat;
  metadata: { topic: string; region: string; year: number; audience: string };
  paragraphs: string[];
}

const articles: Article[] = [
  {
    slug: 'returns-policy',
    title: 'Returns policy',
    format: 'pdf',
    metadata: { topic: 'returns', region: 'all', year: 2026, audience: 'customers' },
    paragraphs: [
      'Customers may return hardware within 30 days of delivery for a full refund. Gold members may return hardware within 60 days of delivery.',
      'Items must be returned in their original packaging with all accessories. Opened software licences cannot be returned.',
      'Start a return from the order page; a prepaid shipping label is emailed within one business day.',
    ],
  },
  {
    slug: 'refunds',
    title: 'Refund timing',
    format: 'docx',
    metadata: { topic: 'returns', region: 'all', year: 2026, audience: 'customers' },
    paragraphs: [
      'Refunds are issued to the original payment method within 5 business days after the returned item arrives at the warehouse.',
      'Card refunds can take a further 3 to 7 days to appear on a statement, depending on the bank.',
    ],
  },
  {
    slug: 'warranty',
    title: 'Warranty coverage',
    format: 'pdf',
    metadata: { topic: 'warranty', region: 'all', year: 2025, audience: 'customers' },
    paragraphs: [
      'Hardware carries a limited warranty against manufacturing defects. Standard customers are covered for 1 year, Silver members for 2 years and Gold members for 3 years from delivery.',
      'The warranty does not cover accidental damage, water damage or batteries after 12 months.',
      'To claim, open a support ticket with the order number and a photo of the fault.',
    ],
  },
  {
    slug: 'shipping-times',
    title: 'Shipping times',
    format: 'md',
    metadata: { topic: 'shipping', region: 'all', year: 2026, audience: 'customers' },
    paragraphs: [
      'Orders ship within one business day. Delivery takes 3 to 5 business days in the EU, 2 to 4 business days in the US and 2 to 3 business days in the UK.',
      'Express delivery arrives the next business day in all three regions for orders placed before 14:00 local time.',
    ],
  },
  {
    slug: 'carrier-tracking',
    title: 'Tracking a shipment',
    format: 'html',
    metadata: { topic: 'shipping', region: 'all', year: 2025, audience: 'customers' },
    paragraphs: [
      'Every shipped order has a tracking number from DHL or UPS, shown on the order page and in the shipping email.',
      'Tracking updates can take up to 24 hours to appear after an order ships.',
    ],
  },
  {
    slug: 'damaged-delivery',
    title: 'Damaged deliveries',
    format: 'txt',
    metadata: { topic: 'shipping', region: 'all', year: 2024, audience: 'customers' },
    paragraphs: [
      'If a parcel arrives damaged, photograph the box and the item and report it within 7 days of delivery.',
      'We send a replacement at no cost once the carrier confirms the damage.',
    ],
  },
  {
    slug: 'cancellation',
    title: 'Cancelling an order',
    format: 'docx',
    metadata: { topic: 'orders', region: 'all', year: 2026, audience: 'customers' },
    paragraphs: [
      'An order can be cancelled free of charge until it ships. Open the order page and choose Cancel order.',
      'Once an order has shipped it can no longer be cancelled; return it instead under the returns policy.',
    ],
  },
  {
    slug: 'payment-methods',
    title: 'Payment methods',
    format: 'txt',
    metadata: { topic: 'billing', region: 'all', year: 2025, audience: 'customers' },
    paragraphs: [
      'We accept Visa, Mastercard, American Express, PayPal and bank transfer. Business accounts can pay by invoice with 30-day terms.',
    ],
  },
  {
    slug: 'loyalty-tiers',
    title: 'Membership tiers',
    format: 'md',
    metadata: { topic: 'membership', region: 'all', year: 2026, audience: 'customers' },
    paragraphs: [
      'Membership has three tiers: Standard, Silver and Gold. Silver needs 1,000 euros of purchases in a year and Gold needs 5,000 euros.',
      'Gold members get free express delivery, a 60-day return window and a 3-year warranty.',
    ],
  },
  {
    slug: 'support-hours',
    title: 'Contacting support',
    format: 'html',
    metadata: { topic: 'support', region: 'all', year: 2026, audience: 'customers' },
    paragraphs: [
      'Support is open Monday to Friday, 08:00 to 20:00 CET, by chat, email and phone. Gold members have a priority phone line.',
      'Tickets are answered within one business day; urgent tickets about outages within four hours.',
    ],
  },
  {
    slug: 'exchanges',
    title: 'Exchanging an item',
    format: 'pdf',
    metadata: { topic: 'returns', region: 'all', year: 2025, audience: 'customers' },
    paragraphs: [
      'To exchange an item for another model, return it under the returns policy and place a new order; we refund the difference or charge it on the new order.',
    ],
  },
  {
    slug: 'eu-returns',
    title: 'Returns in the EU',
    format: 'docx',
    metadata: { topic: 'returns', region: 'EU', year: 2026, audience: 'customers' },
    paragraphs: [
      'Customers in the EU have a statutory 14-day right of withdrawal in addition to the returns policy; the longer period applies.',
    ],
  },
  {
    slug: 'privacy-requests',
    title: 'Privacy and data requests',
    format: 'txt',
    metadata: { topic: 'privacy', region: 'all', year: 2026, audience: 'customers' },
    paragraphs: [
      'Customers can download or delete their personal data from Account, Privacy. Deletion completes within 30 days and cannot be undone.',
    ],
  },
  {
    slug: 'sensor-kit-care',
    title: 'Sensor Kit care guide',
    format: 'md',
    metadata: { topic: 'products', region: 'all', year: 2024, audience: 'customers' },
    paragraphs: [
      'Clean the Nimbus Sensor Kit with a dry cloth. Keep it between 0 and 40 degrees Celsius and away from water.',
      'Replace the sensor batteries every 18 months; the console warns two weeks ahead.',
    ],
  },
  {
    slug: 'gateway-quickstart',
    title: 'Gateway quick start',
    format: 'pdf',
    metadata: { topic: 'products', region: 'all', year: 2025, audience: 'customers' },
    paragraphs: [
      'Plug the Nimbus Gateway into power and Ethernet, wait for the light to turn green, then pair it from the console under Devices.',
    ],
  },
  {
    slug: 'escalation-process',
    title: 'Escalating a ticket',
    format: 'docx',
    metadata: { topic: 'support', region: 'all', year: 2026, audience: 'staff' },
    paragraphs: [
      'Escalate a ticket to the second line when the customer reports an outage, a safety issue, or the ticket has been open for more than three business days.',
      'Gold members are escalated after one business day.',
    ],
  },
];

export const supportKbSystemId = stableId('systems/support-kb');

export function supportDocumentId(slug: string): string {
  return stableId(`support-kb/${slug}`);
}

function supportDocuments(): CorpusDocument[] {
  return articles.map((a) => ({
    documentId: supportDocumentId(a.slug),
    title: a.title,
    format: a.format,
    paragraphs: a.paragraphs,
    metadata: { ...a.metadata } as Record<string, MetadataValue>,
    ...(a.format === 'html' ? { url: `https://help.nimbus.example/articles/${a.slug}` } : {}),
  }));
}

export function supportKbSystem(llms: Record<string, string>): QnaSystem {
  return {
    systemId: supportKbSystemId,
    name: 'Customer Support Knowledge Base',
    prompt: 'Answer customer questions from the support articles and policies.',
    database: 'support_kb',
    dataset: 'articles',
    createdBy: 'Priya Natarajan',
    createdDate: '2025-11-03T10:15:00Z',
    modifiedBy: 'Tomas Berg',
    modifiedDate: '2026-03-01T16:45:00Z',
    llms,
    fields: [
      { name: 'topic', type: 'string', description: 'What the article is about.' },
      {
        name: 'region',
        type: 'string',
        description: 'Region the article applies to (`all` for every region).',
      },
      { name: 'year', type: 'integer', description: 'Year the article was last reviewed.' },
      { name: 'audience', type: 'string', description: 'Who the article is written for.' },
    ],
    documents: supportDocuments(),
  };
}
