/** The emulator's business date: agents reason about order dates relative to it, so answers never drift. */
export const businessDate = '2026-03-14';

export interface Customer {
  customerId: string;
  name: string;
  email: string;
  tier: 'Standard' | 'Silver' | 'Gold';
  region: 'EU' | 'US' | 'UK';
}

export interface Order {
  orderId: string;
  customerId: string;
  status: 'PROCESSING' | 'SHIPPED' | 'DELIVERED' | 'CANCELLED';
  item: string;
  orderedDate: string;
  shippedDate?: string;
  expectedDate?: string;
  deliveredDate?: string;
  /** When a caller cancelled it through an agent (seeded cancellations have no date). */
  cancelledDate?: string;
  carrier?: 'DHL' | 'UPS';
}

/** The customer table of the seeded account's CRM. */
export const customers: readonly Customer[] = [
  { customerId: 'C-100', name: 'Ada Lovelace', email: 'ada@example.com', tier: 'Gold', region: 'EU' },
  { customerId: 'C-101', name: 'Grace Hopper', email: 'grace@example.com', tier: 'Silver', region: 'US' },
  { customerId: 'C-102', name: 'Alan Turing', email: 'alan@example.com', tier: 'Standard', region: 'UK' },
  {
    customerId: 'C-103',
    name: 'Katherine Johnson',
    email: 'katherine@example.com',
    tier: 'Standard',
    region: 'US',
  },
];

/** The orders served by the seeded orders API. */
export const orders: readonly Order[] = [
  {
    orderId: '1001',
    customerId: 'C-100',
    status: 'SHIPPED',
    item: 'Nimbus Sensor Kit',
    orderedDate: '2026-02-28',
    shippedDate: '2026-03-02',
    expectedDate: '2026-03-05',
    carrier: 'DHL',
  },
  {
    orderId: '1002',
    customerId: 'C-100',
    status: 'DELIVERED',
    item: 'Nimbus Gateway',
    orderedDate: '2026-01-20',
    shippedDate: '2026-01-21',
    deliveredDate: '2026-01-24',
    carrier: 'DHL',
  },
  {
    orderId: '1003',
    customerId: 'C-101',
    status: 'PROCESSING',
    item: 'Nimbus Server licence',
    orderedDate: '2026-03-13',
  },
  {
    orderId: '1004',
    customerId: 'C-102',
    status: 'DELIVERED',
    item: 'Nimbus Sensor Kit',
    orderedDate: '2026-01-02',
    shippedDate: '2026-01-03',
    deliveredDate: '2026-01-06',
    carrier: 'UPS',
  },
  {
    orderId: '1005',
    customerId: 'C-103',
    status: 'CANCELLED',
    item: 'Nimbus Gateway',
    orderedDate: '2026-02-11',
  },
  {
    orderId: '1006',
    customerId: 'C-101',
    status: 'DELIVERED',
    item: 'Nimbus Sensor Kit',
    orderedDate: '2026-02-25',
    shippedDate: '2026-02-26',
    deliveredDate: '2026-03-01',
    carrier: 'UPS',
  },
];
