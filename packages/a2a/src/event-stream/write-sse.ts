import type { Dataworkz } from '@dataworkz/client';
import type { StreamAgentOptions } from '../stream-agent.js';
import { agentSse, SSE_HEADERS } from './agent-sse.js';
import type { AgentSseOptions } from './sse-events.js';

/**
 * What `writeAgentSse` uses of Node's `http.ServerResponse` (Express's `res` is one): typed by its
 * members, so this package imports nothing of Node.
 */
export interface SseServerResponse {
  writeHead(statusCode: number, headers: Record<string, string>): unknown;
  /** false when the socket's buffer is full: the next event waits for `drain`. */
  write(chunk: string): boolean;
  end(): unknown;
  flushHeaders?(): void;
  once(event: 'close' | 'drain', listener: () => void): unknown;
  removeListener(event: 'close' | 'drain', listener: () => void): unknown;
  readonly writableEnded: boolean;
}

/**
 * Writes an agent run to a Node `ServerResponse` as Server-Sent Events (`AgentSseEvent`s), and ends
 * it; resolves once the stream is over. The client closing the connection stops the run. Pass the
 * request's `last-event-id` header as `sse.lastEventId`, so a reconnecting `EventSource` follows the
 * same task.
 *
 * ```ts
 * createServer((req, res) => {
 *   void writeAgentSse(dw, agentId, { text: 'Where is order 1001?' }, res, {
 *     lastEventId: req.headers['last-event-id'],
 *   });
 * });
 * ```
 */
export async function writeAgentSse(
  dw: Dataworkz,
  agentId: string,
  options: StreamAgentOptions,
  response: SseServerResponse,
  sse: AgentSseOptions = {},
): Promise<void> {
  const write = agentSse(dw, agentId, options, sse);
  if (write === undefined) {
    response.writeHead(204, {});
    response.end();
    return;
  }
  const closed = new AbortController();
  const onClose = () => closed.abort();
  response.once('close', onClose);
  response.writeHead(200, { ...SSE_HEADERS });
  response.flushHeaders?.();
  const sink = {
    signal: closed.signal,
    write(text: string): void | Promise<void> {
      if (closed.signal.aborted || response.write(text)) return;
      return new Promise<void>((resolve) => {
        const done = () => {
          response.removeListener('drain', done);
          closed.signal.removeEventListener('abort', done);
          resolve();
        };
        response.once('drain', done);
        closed.signal.addEventListener('abort', done, { once: true });
      });
    },
  };
  try {
    await write(sink);
  } finally {
    response.removeListener('close', onClose);
    if (!response.writableEnded) response.end();
  }
}
