import { fileURLToPath } from 'node:url';
import { Dataworkz } from '@dataworkz/client';
import { createDataworkzMcpServer, type HttpServer, startHttpServer } from '@dataworkz/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { onTestFailed } from 'vitest';

/** The built command, as `npx` would run it. */
export const BIN = fileURLToPath(new URL('../../bin/dataworkz-mcp.js', import.meta.url));

/** An MCP client connected to the server, and how to end both. */
export interface Connection {
  client: Client;
  close(): Promise<void>;
}

export interface ServerSetup {
  baseUrl: string;
  apiKey: string;
  args?: string[];
  maxRetries?: number;
  /** More environment variables for the spawned command. */
  env?: Record<string, string>;
}

function newClient(): Client {
  return new Client({ name: 'dataworkz-mcp-tests', version: '1.0.0' });
}

/** Spawns the command over stdio, configured through the environment as an MCP client would. */
export async function connectStdio(setup: ServerSetup): Promise<Connection> {
  const client = newClient();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...(setup.args ?? [])],
    env: { DATAWORKZ_BASE_URL: setup.baseUrl, DATAWORKZ_API_KEY: setup.apiKey, ...setup.env },
    stderr: 'pipe',
  });
  // A server that exits mid-test shows the client only "Connection closed": its own words are printed
  // with the failure, and whether it was still running.
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const report = () => {
    const state = transport.pid === null ? 'exited' : `running as pid ${transport.pid}`;
    console.error(`dataworkz-mcp (${state}) wrote to stderr:\n${stderr || '(nothing)'}`);
  };
  try {
    onTestFailed(report);
  } catch {
    // Connected in a beforeAll hook, outside any test: a failing connection fails the hook itself.
  }
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** Starts the Streamable HTTP server in this process and connects with its token. */
export async function connectHttp(
  setup: ServerSetup & { systems?: string[]; agents?: string[] },
): Promise<Connection & { server: HttpServer }> {
  const dw = new Dataworkz({
    baseUrl: setup.baseUrl,
    apiKey: setup.apiKey,
    logLevel: 'off',
    ...(setup.maxRetries !== undefined
      ? { maxRetries: setup.maxRetries, backoff: { initialDelayMs: 1 } }
      : {}),
  });
  const server = await startHttpServer({
    createServer: () => createDataworkzMcpServer({ dw, systems: setup.systems, agents: setup.agents }),
  });
  const client = newClient();
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { authorization: `Bearer ${server.token}` } },
  });
  await client.connect(transport);
  return {
    client,
    server,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
