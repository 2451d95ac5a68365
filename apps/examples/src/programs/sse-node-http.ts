// Serve an agent run to a browser as Server-Sent Events from Node's own `http` server: writeAgentSse
// writes the steps, then the answer or an error, and ends the response; the browser leaving stops the
// run; a reconnecting EventSource's Last-Event-ID follows the same task, so the agent runs once.
import { createServer } from 'node:http';
import { writeAgentSse } from '@dataworkz/a2a';
import Dataworkz from '@dataworkz/client';
import { tryAgentServer } from '../support/agent-sse-client.js';
import { chooseAgentId } from '../support/target.js';

const dw = new Dataworkz();
let runsStarted = 0;

// GET /api/agents/<agentId>/run?q=<text>: the page opens it with `new EventSource(url)`.
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const match = /^\/api\/agents\/([^/]+)\/run$/.exec(url.pathname);
  if (req.method !== 'GET' || !match) {
    res.writeHead(404).end();
    return;
  }
  const lastEventId = req.headers['last-event-id'];
  if (lastEventId === undefined) runsStarted += 1;
  const agentId = decodeURIComponent(match[1] as string);
  // Invalid options (no text) reject before anything is written: answered 400.
  writeAgentSse(dw, agentId, { text: url.searchParams.get('q') ?? '' }, res, { lastEventId }).catch(
    (error: Error) => res.writeHead(400, { 'content-type': 'text/plain' }).end(error.message),
  );
});
server.listen(0, '127.0.0.1');
await tryAgentServer(server, await chooseAgentId(dw), () => runsStarted);
