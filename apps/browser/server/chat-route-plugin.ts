// Serves POST /api/chat beside the pages, in `vite` and `vite preview`: the example chat route
// (apps/examples/src/ai-sdk/chat-route.ts, a plain (Request) => Response) behind Node's HTTP server.
// The API key stays on the server; the page only talks to its own origin.
import type { IncomingMessage, ServerResponse } from 'node:http';
import Dataworkz from '@dataworkz/client';
import { getRequestListener } from '@hono/node-server';
import type { Plugin } from 'vite';
import { createChatRoute } from '../../examples/src/ai-sdk/chat-route.js';

type Route = (request: Request) => Promise<Response>;

async function agentIdOf(dw: Dataworkz): Promise<string> {
  const fromEnv = process.env.DATAWORKZ_AGENT_ID;
  if (fromEnv) return fromEnv;
  const [first] = await dw.agents.list();
  if (!first?.agentId) throw new Error('The deployment lists no agents; set DATAWORKZ_AGENT_ID.');
  return first.agentId;
}

function chatListener(): (req: IncomingMessage, res: ServerResponse) => void {
  // Built on the first request, so the environment can name the deployment after the server starts.
  let route: Promise<Route> | undefined;
  return getRequestListener(async (request) => {
    try {
      route ??= (async () => {
        const dw = new Dataworkz(); // DATAWORKZ_BASE_URL and DATAWORKZ_API_KEY
        return createChatRoute(dw, await agentIdOf(dw));
      })();
      return await (await route)(request);
    } catch (error) {
      route = undefined;
      const message = error instanceof Error ? error.message : String(error);
      return Response.json({ error: `The chat route cannot reach the service: ${message}` }, { status: 503 });
    }
  });
}

export function chatRoutePlugin(): Plugin {
  let listener: ReturnType<typeof chatListener> | undefined;
  const handle = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (req.method !== 'POST') return next();
    listener ??= chatListener();
    listener(req, res);
  };
  return {
    name: 'dataworkz-chat-route',
    configureServer: (server) => {
      server.middlewares.use('/api/chat', handle);
    },
    configurePreviewServer: (server) => {
      server.middlewares.use('/api/chat', handle);
    },
  };
}
