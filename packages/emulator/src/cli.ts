import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { JSONWebKeySet } from 'jose';
import type { EmulatorOptions } from './options.js';
import { startEmulator } from './server.js';

const usage = `Usage: dataworkz-emulator [options]

  --port <n>             port to listen on (default 8787; 0 picks a free one)
  --host <addr>          interface to listen on (default 127.0.0.1)
  --api-key <key>        an accepted API key (repeatable; one is generated if none)
  --jwt-secret <secret>  accept HS256 Bearer JWTs signed with this secret
  --jwks <url|file>      accept Bearer JWTs verified with this JWKS
  --data <dir>           serve the documents of a folder as extra QnA systems
  --cors <origins>       allowed browser origins, comma-separated, or *
  --extension-base <url> base of the provided-values extension URI (default https://dataworkz.com)
  --no-default-llm       leave the account without a default LLM
  --max-body-bytes <n>   largest request body accepted (default 1048576)
  -h, --help             show this help
`;

function fail(message: string): never {
  process.stderr.write(`dataworkz-emulator: ${message}\n\n${usage}`);
  process.exit(2);
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a non-negative integer`);
  return n;
}

function readJwks(value: string): JSONWebKeySet | string {
  if (/^https?:\/\//.test(value)) return value;
  try {
    return JSON.parse(readFileSync(value, 'utf8')) as JSONWebKeySet;
  } catch (error) {
    return fail(`cannot read the JWKS file ${value}: ${(error as Error).message}`);
  }
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    fail((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const port = integer('port', values.port) ?? 8787;
  const maxBodyBytes = integer('max-body-bytes', values['max-body-bytes']);
  const options: EmulatorOptions = {
    port,
    host: values.host ?? '127.0.0.1',
    apiKeys: values['api-key'] ?? [],
    noDefaultLlm: values['no-default-llm'] ?? false,
    ...(values['jwt-secret'] ? { jwtSecret: values['jwt-secret'] } : {}),
    ...(values.jwks ? { jwks: readJwks(values.jwks) } : {}),
    ...(values.data ? { data: values.data } : {}),
    ...(values['extension-base'] ? { extensionBase: values['extension-base'] } : {}),
    ...(values.cors
      ? { cors: { origins: values.cors === '*' ? '*' : values.cors.split(',').map((o) => o.trim()) } }
      : {}),
    ...(maxBodyBytes !== undefined ? { limits: { maxBodyBytes } } : {}),
  };
  const emulator = await startEmulator(options);
  process.stdout.write(`Dataworkz emulator listening on ${emulator.url}\nAPI key: ${emulator.apiKey}\n`);
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function parse() {
  return parseArgs({
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      'jwt-secret': { type: 'string' },
      jwks: { type: 'string' },
      data: { type: 'string' },
      cors: { type: 'string' },
      'extension-base': { type: 'string' },
      'no-default-llm': { type: 'boolean' },
      'max-body-bytes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`dataworkz-emulator: ${(error as Error).message}\n`);
  process.exit(1);
});
