import type { ServerResponse } from 'node:http';
import type { Handler } from './server.js';

/** What an endless body managed to send before the client stopped reading. */
export interface Sent {
  bytes: number;
  /** Resolves once the response has closed (the client cancelled, or the budget ran out). */
  closed: Promise<void>;
}

/**
 * A handler that answers `status` and then writes `chunk` again and again, honouring backpressure,
 * until the client goes away or `budgetBytes` have been written (so the loop is always bounded).
 */
export function endless(
  status: number,
  headers: Record<string, string>,
  chunk: Buffer,
  budgetBytes = 1024 * 1024 * 1024,
): { handler: Handler; sent: Sent } {
  let markClosed!: () => void;
  const sent: Sent = { bytes: 0, closed: new Promise((resolve) => (markClosed = resolve)) };
  const handler: Handler = (_request, res) => {
    res.writeHead(status, headers);
    res.on('close', markClosed);
    pump(res, chunk, budgetBytes, sent);
  };
  return { handler, sent };
}

function pump(res: ServerResponse, chunk: Buffer, budget: number, sent: Sent): void {
  while (!res.destroyed && sent.bytes < budget) {
    sent.bytes += chunk.length;
    if (!res.write(chunk)) {
      res.once('drain', () => pump(res, chunk, budget, sent));
      return;
    }
  }
  if (!res.destroyed) res.end();
}
