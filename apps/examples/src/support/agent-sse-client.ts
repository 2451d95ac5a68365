// What a browser's EventSource does with an agent route, done in Node so the recipes can show it: read
// the route's Server-Sent Events, drop the connection, reconnect with the last event's id
// (Last-Event-ID), and stop on the 204 that follows the last event.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentSseEvent } from '@dataworkz/a2a';
import { createParser } from 'eventsource-parser';
import { excerpt, field, heading } from './output.js';
import { describeTaskUpdate } from './task-update.js';

interface Heard {
  id: string | undefined;
  event: AgentSseEvent;
}

/** The route's events, parsed by eventsource-parser as an EventSource would; `stopAfter` drops the connection. */
async function readEvents(
  url: string,
  options: { lastEventId?: string | undefined; stopAfter?: number } = {},
): Promise<{ status: number; events: Heard[] }> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(url, { headers });
  const events: Heard[] = [];
  if (response.body === null) return { status: response.status, events };
  const parser = createParser({
    onEvent: ({ id, data }) => events.push({ id, event: JSON.parse(data) as AgentSseEvent }),
  });
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  while (events.length < (options.stopAfter ?? Number.POSITIVE_INFINITY)) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  await reader.cancel();
  return { status: response.status, events: events.slice(0, options.stopAfter) };
}

function show({ id, event }: Heard): void {
  if (event.type === 'step') field(`step  ${id}`, describeTaskUpdate(event.step));
  else if (event.type === 'answer') field(`answer ${id}`, `${event.state}: ${excerpt(event.text, 200)}`);
  else field(`error ${id}`, `${event.name}: ${event.message}`);
}

/**
 * Uses the route at `base` as a browser would, and checks what each recipe promises: the steps and the
 * answer; a reconnection that follows the same task (`runsStarted()`, counted by the route, does not
 * grow); 204 after the end; an `error` event for a run that fails.
 */
async function tryAgentRoute(base: string, agentId: string, runsStarted: () => number): Promise<void> {
  const url = `${base}/api/agents/${encodeURIComponent(agentId)}/run?q=${encodeURIComponent('Where is order 1001?')}`;

  heading('The browser opens the stream: the steps, then the answer');
  const whole = await readEvents(url);
  for (const heard of whole.events) show(heard);
  if (whole.events.at(-1)?.event.type !== 'answer')
    throw new Error('The stream did not end with its answer.');

  heading('The connection drops after two events; the browser reconnects with Last-Event-ID');
  const cut = await readEvents(url, { stopAfter: 2 });
  const before = runsStarted();
  const lastEventId = cut.events.at(-1)?.id;
  field('Last-Event-ID', lastEventId);
  const resumed = await readEvents(url, { lastEventId });
  for (const heard of resumed.events) show(heard);
  field('agent runs started by the route', `${runsStarted()} (the reconnection followed the same task)`);
  if (runsStarted() !== before) throw new Error('The reconnection ran the agent again.');

  heading('Reconnecting after the last event: 204, which stops an EventSource');
  const after = await readEvents(url, { lastEventId: resumed.events.at(-1)?.id });
  field('status', after.status);
  if (after.status !== 204) throw new Error(`A reconnection after the end was answered ${after.status}.`);

  heading('A run that fails: its last event is an error, with the error class and message');
  const failed = await readEvents(`${base}/api/agents/no-such-agent/run?q=Hello`);
  for (const heard of failed.events) show(heard);
  if (failed.events.at(-1)?.event.type !== 'error') throw new Error('The failed run sent no error event.');
}

/** Waits for `server` to listen, uses its route at /api/agents/<agentId>/run (`tryAgentRoute`), then closes it. */
export async function tryAgentServer(
  server: Server,
  agentId: string,
  runsStarted: () => number,
): Promise<void> {
  if (!server.listening) await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    await tryAgentRoute(`http://127.0.0.1:${port}`, agentId, runsStarted);
  } finally {
    // Idle keep-alive connections too: Deno's node:http keeps its process alive for them after close().
    server.close();
    server.closeAllConnections();
  }
}
