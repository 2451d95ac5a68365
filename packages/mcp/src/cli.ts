import { createRequire } from 'node:module';
import type { Logger } from '@dataworkz/client';
import { startTracing, type Tracing, tracesWanted } from '@dataworkz/client/node-tracing';
import { readConfig, USAGE, UsageError } from './config.js';

// The client, the MCP SDK and the transport load once the arguments are read: `--help` and a usage
// error need none of them, and a server loads only the transport it serves.

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

// stdout carries the MCP protocol over stdio, so every line for a person goes to stderr.
const stderrLogger: Logger = {
  error: (message, data) => console.error(message, ...(data ? [data] : [])),
  warn: (message, data) => console.error(message, ...(data ? [data] : [])),
  info: (message, data) => console.error(message, ...(data ? [data] : [])),
  debug: (message, data) => console.error(message, ...(data ? [data] : [])),
};

/** The OpenTelemetry SDK, loaded and registered only when the standard variables ask for traces. */
async function startTracingIfAsked(): Promise<Tracing | undefined> {
  const wanted = tracesWanted(process.env);
  for (const warning of wanted.warnings) process.stderr.write(`dataworkz-mcp: ${warning}\n`);
  if (wanted.exporters.length === 0) return undefined;
  return startTracing(wanted.exporters, {
    name: 'dataworkz-mcp',
    version,
    stderr: (text) => process.stderr.write(text),
  });
}

/** On SIGINT and SIGTERM: `stop`, then the traces left are exported, then exit. */
function exitOnSignals(stop: () => Promise<void>, tracing: Tracing | undefined): void {
  const exit = () => {
    stop()
      .then(() => tracing?.shutdown())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', exit);
  process.once('SIGTERM', exit);
}

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2), process.env);
  if (config === 'help') {
    process.stderr.write(USAGE);
    return;
  }
  const tracing = await startTracingIfAsked();
  const [{ Dataworkz }, { resolveExposure }, { createDataworkzMcpServer }] = await Promise.all([
    import('@dataworkz/client'),
    import('./exposure.js'),
    import('./server.js'),
  ]);
  const dw = new Dataworkz({
    logger: stderrLogger,
    ...(config.dataworkzToken !== undefined ? { token: config.dataworkzToken } : {}),
  });
  // Names become ids once, before serving: an entry that names nothing (or several) stops the server here.
  const exposure = await resolveExposure(dw, { systems: config.systems, agents: config.agents }).catch(
    (error: unknown) => {
      throw new ExposureError(error);
    },
  );
  if (config.transport === 'stdio') {
    const { serveStdio } = await import('./transports/stdio.js');
    await serveStdio(createDataworkzMcpServer({ dw, ...exposure }));
    if (tracing !== undefined) {
      // The client ends the session by closing stdin (then signals): export what is left either way.
      process.stdin.once('end', () => void tracing.shutdown());
      exitOnSignals(async () => {}, tracing);
    }
    return;
  }
  const { startHttpServer } = await import('./transports/http.js');
  const server = await startHttpServer({
    createServer: () => createDataworkzMcpServer({ dw, ...exposure }),
    port: config.port,
    host: config.host,
    token: config.httpToken,
    allowedOrigins: config.allowedOrigins,
  });
  process.stderr.write(`dataworkz-mcp listening on ${server.url}\n`);
  if (config.httpToken === undefined) process.stderr.write(`Bearer token: ${server.token}\n`);
  exitOnSignals(() => server.close(), tracing);
}

/** An allowlist entry names no system or agent (or several): the message says which flag and entry. */
class ExposureError extends Error {
  constructor(cause: unknown) {
    const kind = (cause as { kind?: unknown }).kind;
    const flag = kind === 'agent' ? '--agents' : kind === 'QnA system' ? '--systems' : undefined;
    const message = cause instanceof Error ? cause.message : String(cause);
    super(flag === undefined ? message : `${flag}: ${message}`, { cause });
  }
}

main().catch((error: unknown) => {
  // Configuration errors name what is missing; none of them quotes a credential.
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}`);
  else process.stderr.write(`dataworkz-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
