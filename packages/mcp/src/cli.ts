import { Dataworkz, DataworkzError, type Logger } from '@dataworkz/client';
import { readConfig, USAGE, UsageError } from './config.js';
import { createDataworkzMcpServer } from './server.js';
import { startHttpServer } from './transports/http.js';
import { serveStdio } from './transports/stdio.js';

// stdout carries the MCP protocol over stdio, so every line for a person goes to stderr.
const stderrLogger: Logger = {
  error: (message, data) => console.error(message, ...(data ? [data] : [])),
  warn: (message, data) => console.error(message, ...(data ? [data] : [])),
  info: (message, data) => console.error(message, ...(data ? [data] : [])),
  debug: (message, data) => console.error(message, ...(data ? [data] : [])),
};

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2), process.env);
  if (config === 'help') {
    process.stderr.write(USAGE);
    return;
  }
  const dw = new Dataworkz({
    logger: stderrLogger,
    ...(config.dataworkzToken !== undefined ? { token: config.dataworkzToken } : {}),
  });
  const exposure = { systems: config.systems, agents: config.agents };
  if (config.transport === 'stdio') {
    await serveStdio(createDataworkzMcpServer({ dw, ...exposure }));
    return;
  }
  const server = await startHttpServer({
    createServer: () => createDataworkzMcpServer({ dw, ...exposure }),
    port: config.port,
    host: config.host,
    token: config.httpToken,
    allowedOrigins: config.allowedOrigins,
  });
  process.stderr.write(`dataworkz-mcp listening on ${server.url}\n`);
  if (config.httpToken === undefined) process.stderr.write(`Bearer token: ${server.token}\n`);
  const stop = () => {
    server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  // Configuration errors name what is missing; none of them quotes a credential.
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}`);
  else if (error instanceof DataworkzError) process.stderr.write(`dataworkz-mcp: ${error.message}\n`);
  else process.stderr.write(`dataworkz-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
