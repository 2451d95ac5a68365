import { businessDate, type Order, orders } from '../data/commerce.js';

/**
 * The orders API's records in one emulator: the seeded orders plus what callers changed since
 * (cancellations), so a later status question sees the change and other emulators do not.
 */
export class OrderBook {
  private readonly cancelled = new Map<string, string>();

  get(orderId: string): Order | undefined {
    const order = orders.find((o) => o.orderId === orderId);
    return order && this.current(order);
  }

  list(customerId: string): Order[] {
    return orders.filter((o) => o.customerId === customerId).map((o) => this.current(o));
  }

  /** Cancels an order still being prepared; any other order is returned unchanged. */
  cancel(orderId: string): Order | undefined {
    const order = this.get(orderId);
    if (order?.status !== 'PROCESSING') return order;
    this.cancelled.set(orderId, businessDate);
    return this.get(orderId);
  }

  /** Order id to cancellation date, for each order a caller cancelled. */
  cancellations(): Record<string, string> {
    return Object.fromEntries(this.cancelled);
  }

  /** Forgets every cancellation (a reset). */
  clear(): void {
    this.cancelled.clear();
  }

  /** Marks a seeded order cancelled on a date, as an exported state recorded it. */
  restoreCancellation(orderId: string, date: string): void {
    if (orders.some((o) => o.orderId === orderId)) this.cancelled.set(orderId, date);
  }

  private current(order: Order): Order {
    const cancelledDate = this.cancelled.get(order.orderId);
    return cancelledDate ? { ...order, status: 'CANCELLED', cancelledDate } : { ...order };
  }
}
