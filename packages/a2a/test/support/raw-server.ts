// A bare node:http server for faults the SDK's server cannot produce: stalls, drops, oversized
// events, wrong content types, streams that end early.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawServer {
  url: string;
  /** Connections currently open. */
  readonly openConnections: number;
  /** Resolves once the response in progress has been closed (by either side). */
  responseClosed(): Promise<void>;
  close(): Promise<void>;
}

export type RawHandler = (req: IncomingMessage, res: ServerResponse, body: unknown) => void | Promise<void>;

export async function startRawServer(handle: RawHandler): Promise<RawServer> {
  let open = 0;
  let closedWaiters: Array<() => void> = [];
  const server = createServer(async (req, res) => {
    open++;
    res.on('close', () => {
      open--;
      for (const waiter of closedWaiters) waiter();
      closedWaiters = [];
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    await handle(req, res, text ? JSON.parse(text) : undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get openConnections() {
      return open;
    },
    responseClosed: () =>
      open === 0 ? Promise.resolve() : new Promise<void>((resolve) => closedWaiters.push(resolve)),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** One SSE event carrying a JSON-RPC result for the request `id`. */
export function sseResult(id: unknown, result: unknown): string {
  return `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`;
}

export const requestId = (body: unknown): unknown => (body as { id?: unknown }).id;

export const working = {
  kind: 'status-update',
  taskId: 't-1',
  contextId: 'c-1',
  final: false,
  status: { state: 'working' },
};

export const completed = (text: string) => ({
  kind: 'status-update',
  taskId: 't-1',
  contextId: 'c-1',
  final: true,
  status: {
    state: 'completed',
    message: { kind: 'message', role: 'agent', messageId: 'm-1', parts: [{ kind: 'text', text }] },
  },
});
