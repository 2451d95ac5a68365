import type { Dataworkz } from '@dataworkz/client';
import type { StreamAgentOptions } from '../stream-agent.js';
import { agentSse, SSE_HEADERS } from './agent-sse.js';
import type { AgentSseOptions } from './sse-events.js';

/**
 * An agent run as a web `Response` of Server-Sent Events (`AgentSseEvent`s), for any handler that
 * returns one (Hono, Next.js route handlers, Deno, Bun, workers). Cancelling the body (the client
 * leaving) or aborting `options.signal` stops the run. Pass the request's `Last-Event-ID` as
 * `sse.lastEventId`, so a reconnecting `EventSource` follows the same task.
 *
 * ```ts
 * app.get('/api/agent', (c) =>
 *   agentSseResponse(dw, agentId, { text: c.req.query('q') ?? '', signal: c.req.raw.signal }, {
 *     lastEventId: c.req.header('last-event-id'),
 *   }),
 * );
 * ```
 */
export function agentSseResponse(
  dw: Dataworkz,
  agentId: string,
  options: StreamAgentOptions,
  sse: AgentSseOptions = {},
): Response {
  const write = agentSse(dw, agentId, options, sse);
  if (write === undefined) return new Response(null, { status: 204 });
  const closed = new AbortController();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const sink = {
        signal: closed.signal,
        write(text: string) {
          if (!closed.signal.aborted) controller.enqueue(encoder.encode(text));
        },
      };
      write(sink).then(
        () => {
          if (!closed.signal.aborted) controller.close();
        },
        (error: unknown) => controller.error(error),
      );
    },
    cancel() {
      closed.abort();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}
