// Serve an agent run to a browser as Server-Sent Events from a web-standard handler (Hono here; a
// Next.js route handler, Deno or Bun return the same Response): agentSseResponse returns it. The body
// cancelled (the browser leaving) stops the run; a reconnecting EventSource's Last-Event-ID follows
// the same task, so the agent runs once.
import type { Server } from 'node:http';
import { agentSseResponse } from '@dataworkz/a2a';
import Dataworkz from '@dataworkz/client';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { tryAgentServer } from '../support/agent-sse-client.js';
import { chooseAgentId } from '../support/target.js';

const dw = new Dataworkz();
let runsStarted = 0;

const app = new Hono();
// GET /api/agents/<agentId>/run?q=<text>: the page opens it with `new EventSource(url)`.
app.get('/api/agents/:agentId/run', (c) => {
  const lastEventId = c.req.header('last-event-id');
  if (lastEventId === undefined) runsStarted += 1;
  return agentSseResponse(dw, c.req.param('agentId'), { text: c.req.query('q') ?? '' }, { lastEventId });
});

// On Node through @hono/node-server; elsewhere `export default app`.
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await tryAgentServer(server as Server, await chooseAgentId(dw), () => runsStarted);
