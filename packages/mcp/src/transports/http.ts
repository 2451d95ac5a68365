import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { refusalOf } from './http-guard.js';

/** How `startHttpServer` listens, and who it lets in. */
export interface HttpServerOptions {
  /** Makes the MCP server of one session. */
  createServer: () => McpServer;
  /** Port to listen on; 0 picks a free one. Default 0. */
  port?: number | undefined;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string | undefined;
  /** The bearer token clients must send; a random one is generated when absent. */
  token?: string | undefined;
  /** Browser origins allowed to call (default none: any request with an `Origin` header is refused). */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * Host names the `Host` header may name. Default: the loopback names when listening on loopback,
   * else any (put the server behind a proxy that sets its own).
   */
  allowedHosts?: readonly string[] | undefined;
  /**
   * Sessions kept at once (default 100). Clients rarely end their sessions, so past this the one
   * used least recently is ended; its client gets 404 and starts a new one.
   */
  maxSessions?: number | undefined;
}

/** An MCP server listening over Streamable HTTP. */
export interface HttpServer {
  /** The MCP endpoint, `http://host:port/mcp`. */
  readonly url: string;
  /** The bearer token clients must send. */
  readonly token: string;
  /** Stops listening and ends every session. */
  close(): Promise<void>;
}

const PATH = '/mcp';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  response
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** Serves MCP over Streamable HTTP at `/mcp`, one MCP server per session, behind the server's own token. */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(32).toString('base64url');
  const guard = {
    token,
    allowedOrigins: options.allowedOrigins ?? [],
    allowedHosts: options.allowedHosts ?? (LOOPBACK.has(host) ? LOOPBACK_HOSTS : undefined),
  };
  const maxSessions = options.maxSessions ?? 100;
  if (!Number.isInteger(maxSessions) || maxSessions < 1) {
    throw new RangeError('maxSessions must be a positive integer.');
  }
  // In order of last use: the first is the one to end when a new session needs room.
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  async function openSession(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const server = options.createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        if (sessions.size >= maxSessions) {
          const [oldest] = sessions.values();
          oldest?.close().catch(() => {});
        }
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
    // A first request that was not an initialization opened no session: nothing will reach this server again.
    if (transport.sessionId === undefined) await server.close();
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://server.invalid').pathname;
    if (path !== PATH) return sendError(response, 404, `Not found: the MCP endpoint is ${PATH}.`);
    const refusal = refusalOf(request, guard);
    if (refusal) {
      const challenge: Record<string, string> =
        refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
      return sendError(response, refusal.status, refusal.message, challenge);
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport) return sendError(response, 404, 'Unknown or ended session.');
      sessions.delete(sessionId);
      sessions.set(sessionId, transport);
      return transport.handleRequest(request, response);
    }
    if (request.method !== 'POST')
      return sendError(response, 400, 'Start a session with an initialize request.');
    return openSession(request, response);
  }

  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) sendError(response, 500, 'Internal server error.');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}${PATH}`,
    token,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      sessions.clear();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}
