import { parseArgs } from 'node:util';

/** How the command was asked to run. */
export interface Config {
  transport: 'stdio' | 'http';
  port: number;
  host: string;
  /** The HTTP transport's own bearer token; generated when absent. */
  httpToken: string | undefined;
  allowedOrigins: string[];
  systems: string[] | undefined;
  agents: string[] | undefined;
  /** A JWT for the service, used instead of `DATAWORKZ_API_KEY` when set. */
  dataworkzToken: string | undefined;
}

/** Thrown for arguments the command cannot run with; the message says which. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: dataworkz-mcp [--http [--port N] [--host H] [--allowed-origins O,...]] [--systems ID|NAME,...] [--agents ID|NAME,...]

Serves the account's Dataworkz QnA systems and agents over MCP: stdio by default, Streamable HTTP with --http.

  --http                    serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --port N                  HTTP port (default 3000; 0 picks a free one)
  --host H                  HTTP interface (default 127.0.0.1)
  --allowed-origins O,...   browser origins allowed to call over HTTP (default none)
  --systems ID|NAME,...     expose only these QnA systems, by id or exact name (default all)
  --agents ID|NAME,...      expose only these agents, by id or exact name (default all)

Environment:
  DATAWORKZ_BASE_URL        the deployment, e.g. https://app.dataworkz.com (required)
  DATAWORKZ_API_KEY         the API key, or
  DATAWORKZ_TOKEN           a JWT to send instead
  DATAWORKZ_MCP_TOKEN       the bearer token HTTP clients must send (default: generated, printed to stderr)
`;

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items;
}

/** The configuration from the command line and the environment. */
export function readConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Config | 'help' {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const port = values.port === undefined ? 3000 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError('--port must be an integer from 0 to 65535.');
  }
  if (
    !values.http &&
    (values.port !== undefined || values.host !== undefined || values['allowed-origins'] !== undefined)
  ) {
    throw new UsageError('--port, --host and --allowed-origins apply only with --http.');
  }
  if (!env.DATAWORKZ_API_KEY && !env.DATAWORKZ_TOKEN) {
    throw new UsageError('Set DATAWORKZ_API_KEY (or DATAWORKZ_TOKEN) to the credential for the service.');
  }
  return {
    transport: values.http ? 'http' : 'stdio',
    port,
    host: values.host ?? '127.0.0.1',
    httpToken: env.DATAWORKZ_MCP_TOKEN || undefined,
    allowedOrigins: list(values['allowed-origins']) ?? [],
    systems: list(values.systems),
    agents: list(values.agents),
    dataworkzToken: env.DATAWORKZ_TOKEN || undefined,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      http: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      'allowed-origins': { type: 'string' },
      systems: { type: 'string' },
      agents: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
