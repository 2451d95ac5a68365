// Serve an agent run to a browser as Server-Sent Events from an Express route: Express's `res` is
// Node's ServerResponse, so writeAgentSse writes to it directly. The browser leaving stops the run; a
// reconnecting EventSource's Last-Event-ID follows the same task, so the agent runs once.
import { writeAgentSse } from '@dataworkz/a2a';
import Dataworkz from '@dataworkz/client';
import express from 'express';
import { tryAgentServer } from '../support/agent-sse-client.js';
import { chooseAgentId } from '../support/target.js';

const dw = new Dataworkz();
let runsStarted = 0;

const app = express();
// GET /api/agents/<agentId>/run?q=<text>: the page opens it with `new EventSource(url)`.
app.get('/api/agents/:agentId/run', (req, res, next) => {
  const lastEventId = req.get('last-event-id');
  if (lastEventId === undefined) runsStarted += 1;
  const text = typeof req.query.q === 'string' ? req.query.q : '';
  // Invalid options (no text) reject before anything is written: Express answers them.
  writeAgentSse(dw, req.params.agentId, { text }, res, { lastEventId }).catch(next);
});
const server = app.listen(0, '127.0.0.1');
await tryAgentServer(server, await chooseAgentId(dw), () => runsStarted);
