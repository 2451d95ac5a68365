// `pnpm a2a:tck --tck <path>`: runs the A2A project's conformance kit (a checkout of
// a2aproject/a2a-tck that you made, with its Python dependencies installed) against the emulator's
// JSON-RPC interface and prints the counts per level and each failure with its message.
// - The v1.0 kit (branch 1.0-dev: tests/compatibility/) runs at levels must, should and may, one at a
//   time, against the v1.0 card (the emulator is started with --a2a-version 1.0, since the kit asks for
//   the card without naming a version) and calls that send `A2A-Version: 1.0`.
// - The v0.3 kit (branch 0.3.x: tests/mandatory/) runs its mandatory category against the v0.3 card and
//   calls without the header.
// Everything stays on loopback: the emulator, and a forward proxy (HTTP_PROXY, which httpx and requests
// honour) that adds the emulator's key to the kit's requests: the kit sends no credentials, and the card
// and the calls need them. The v0.3 kit reads the card at the host's root (`/.well-known/...`); the
// proxy forwards that path to the agent's card. The kit's own reports go to a temporary folder.
//
// Options: --tck <path> (required), --python <exe> (default python3; the kit's virtualenv's python, say),
// --level must|should|may (repeatable; v1.0 kit; default all three), --agent <agentId> (default the
// Order Status Assistant), --keep-reports; what follows `--` goes to pytest as it is.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { XMLParser } from 'fast-xml-parser';

const usage = `usage: pnpm a2a:tck --tck <path to an a2a-tck checkout> [--python <exe>] [--level must|should|may]... [--agent <id>] [--keep-reports] [-- <pytest arguments>]`;
const levels = ['must', 'should', 'may'];

function fail(message) {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

let options;
let pytestArgs;
try {
  ({ values: options, positionals: pytestArgs } = parseArgs({
    allowPositionals: true,
    options: {
      tck: { type: 'string' },
      python: { type: 'string', default: 'python3' },
      level: { type: 'string', multiple: true },
      agent: { type: 'string' },
      'keep-reports': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  fail(error.message);
}
if (options.help) {
  console.log(usage);
  process.exit(0);
}
if (!options.tck) fail('--tck is required: the path of an a2a-tck checkout (branch 1.0-dev).');
const tck = resolve(options.tck);
// The kit's line, from its layout: 1.0-dev has tests/compatibility/, 0.3.x tests/mandatory/.
const line = existsSync(join(tck, 'tests/compatibility/conftest.py'))
  ? '1.0'
  : existsSync(join(tck, 'tests/mandatory'))
    ? '0.3'
    : fail(`${tck} is not an a2a-tck checkout (neither tests/compatibility/ nor tests/mandatory/).`);
const wanted = options.level ?? levels;
for (const level of wanted) if (!levels.includes(level)) fail(`--level must be one of ${levels.join(', ')}.`);

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'packages/emulator/bin/dataworkz-emulator.js');

/** Starts the built emulator on a free loopback port, serving the card of the kit's version to requests that name none. */
async function startEmulator() {
  const child = spawn(
    process.execPath,
    [bin, '--port', '0', '--host', '127.0.0.1', '--a2a-version', line, '--no-console'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  let url;
  let apiKey;
  for await (const line of lines) {
    url ??= /^export DATAWORKZ_BASE_URL=(\S+)/.exec(line)?.[1];
    apiKey ??= /^export DATAWORKZ_API_KEY=(\S+)/.exec(line)?.[1];
    if (url && apiKey) break;
  }
  if (!url || !apiKey) throw new Error('the emulator did not print its URL and key');
  return { child, url, apiKey };
}

/**
 * A proxy for the kit's HTTP clients, as HTTP_PROXY (httpx and requests honour it) or addressed directly:
 * each request goes on to the emulator unchanged but for its `Authorization`. For the v1.0 kit the card
 * passes untouched (its URLs are the emulator's, reached through HTTP_PROXY; its caching headers are
 * what the kit checks). The v0.3 kit's JSON-RPC client ignores HTTP_PROXY and posts to the card's URL,
 * so for it the card names the proxy, as a gateway in front of an agent would (its ETag, of other
 * bytes, is dropped). Anything but the emulator is refused.
 */
function startProxy(target, apiKey, cardPath) {
  const origin = new URL(target).origin;
  const server = createServer((incoming, outgoing) => {
    const self = `http://127.0.0.1:${server.address().port}`;
    // Absolute-form (a client using it as HTTP_PROXY) or origin-form (a client pointed at it directly).
    let url;
    try {
      url = new URL(incoming.url ?? '/', origin);
    } catch {
      url = undefined;
    }
    // Addressed to the proxy itself (through HTTP_PROXY or not): it stands for the emulator.
    if (url && url.origin === self) url = new URL(url.pathname + url.search, origin);
    if (!url || url.origin !== origin) {
      outgoing.writeHead(403, { 'content-type': 'text/plain' }).end(`only ${origin} is reachable here\n`);
      return;
    }
    if (/^\/\.well-known\/agent(-card)?\.json$/.test(url.pathname)) url.pathname = cardPath;
    const rewriteCard = line === '0.3' && url.pathname.endsWith('.json');
    const headers = { ...incoming.headers, authorization: `SSWS ${apiKey}` };
    delete headers['proxy-connection'];
    const forwarded = request(url, { method: incoming.method, headers }, async (answer) => {
      if (!rewriteCard) {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        return;
      }
      let body = '';
      for await (const chunk of answer) body += chunk;
      const { etag: _etag, 'content-length': _length, ...kept } = answer.headers;
      outgoing.writeHead(answer.statusCode ?? 502, kept).end(body.replaceAll(origin, self));
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/** The pytest arguments of one run: a level of the v1.0 kit, or the v0.3 kit's mandatory category. */
function kitArguments(run, agentBase, proxyUrl, reports) {
  if (line === '0.3') {
    return [
      'tests/mandatory/',
      // Through the proxy directly: this kit's clients ignore HTTP_PROXY.
      `--sut-url=${proxyUrl}${new URL(agentBase).pathname}/stream`,
      '--test-scope=all',
      '-m',
      'mandatory_jsonrpc or mandatory_protocol',
    ];
  }
  return [
    'tests/compatibility/',
    `--sut-host=${agentBase}`,
    '--transport=jsonrpc',
    '-m',
    run,
    `--compatibility-report=${join(reports, `${run}-compatibility`)}`,
  ];
}

/** Runs the kit's pytest once; resolves with its JUnit XML report's path. */
function runKit(run, agentBase, proxyUrl, reports) {
  const junit = join(reports, `${run}.xml`);
  const args = [
    '-m',
    'pytest',
    ...kitArguments(run, agentBase, proxyUrl, reports),
    '--tb=line',
    '-q',
    '-p',
    'no:cacheprovider',
    `--junitxml=${junit}`,
    ...pytestArgs,
  ];
  const env = {
    ...process.env,
    HTTP_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    NO_PROXY: '',
    no_proxy: '',
  };
  return new Promise((done, reject) => {
    const child = spawn(options.python, args, { cwd: tck, env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    // pytest exits 1 when a test fails: the report says which.
    child.on('exit', (code) =>
      code === 0 || code === 1 ? done(junit) : reject(new Error(`pytest exited ${code}`)),
    );
  });
}

/** The Order Status Assistant's id, from the emulator's agent list (it keeps a task open, as the kit's multi-turn cases need). */
async function orderStatusAgentId({ url, apiKey }) {
  const response = await fetch(`${url}/api/agents/v1/`, { headers: { authorization: `SSWS ${apiKey}` } });
  const agents = await response.json();
  const agent = agents.find((entry) => entry.name === 'Order Status Assistant');
  if (!agent) throw new Error('the emulator lists no Order Status Assistant');
  return agent.agentId;
}

const asList = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Counts and failures from a JUnit XML report (pytest's: xfail and skip are both `skipped`, told by type). */
async function readReport(path) {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', htmlEntities: true });
  const xml = parser.parse(await readFile(path, 'utf8'));
  const cases = asList(xml.testsuites?.testsuite).flatMap((suite) => asList(suite.testcase));
  const counts = { passed: 0, failed: 0, error: 0, xfailed: 0, skipped: 0 };
  const failures = [];
  const skipReasons = new Map();
  for (const testCase of cases) {
    const name = `${testCase.classname}::${testCase.name}`;
    const [failure] = asList(testCase.failure);
    const [error] = asList(testCase.error);
    const [skipped] = asList(testCase.skipped);
    if (failure !== undefined) {
      counts.failed += 1;
      failures.push({ name, message: failure.message ?? '' });
    } else if (error !== undefined) {
      counts.error += 1;
      failures.push({ name, message: error.message ?? '' });
    } else if (skipped?.type === 'pytest.xfail') {
      counts.xfailed += 1;
      failures.push({ name, message: `xfail: ${skipped.message ?? ''}` });
    } else if (skipped !== undefined) {
      counts.skipped += 1;
      // Skip messages name the test's own values; the transport ones are what matter in a summary.
      const reason = /^Transport '[^']+' not configured/.exec(skipped.message ?? '')?.[0] ?? 'other reasons';
      skipReasons.set(reason, (skipReasons.get(reason) ?? 0) + 1);
    } else counts.passed += 1;
  }
  return { counts, failures, skipReasons };
}

const commit = await new Promise((done) => {
  const git = spawn('git', ['-C', tck, 'rev-parse', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  git.stdout.on('data', (chunk) => {
    out += chunk;
  });
  git.on('exit', (code) => done(code === 0 ? out.trim() : 'unknown (not a git checkout)'));
  git.on('error', () => done('unknown (git not found)'));
});

const emulator = await startEmulator();
const agent = options.agent ?? (await orderStatusAgentId(emulator));
const agentPath = `/api/agents/v1/a2a/${encodeURIComponent(agent)}`;
const proxy = await startProxy(emulator.url, emulator.apiKey, `${agentPath}/.well-known/agent-card.json`);
const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
const agentBase = `${emulator.url}${agentPath}`;
const runs = line === '0.3' ? ['mandatory'] : wanted;
const reports = await mkdtemp(join(tmpdir(), 'a2a-tck-'));
let status = 0;
try {
  console.log(`a2a-tck ${commit} (the v${line} kit), JSON-RPC, against ${agentBase}`);
  for (const run of runs) {
    const { counts, failures, skipReasons } = await readReport(
      await runKit(run, agentBase, proxyUrl, reports),
    );
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    console.log(
      `\n${run.toUpperCase()}: ${total} tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.error} errors, ${counts.xfailed} xfailed, ${counts.skipped} skipped`,
    );
    const skips = [...skipReasons].map(([reason, n]) => `${n} ${reason}`).join('; ');
    if (skips) console.log(`  skipped: ${skips}`);
    for (const { name, message } of failures) console.log(`  ${name}\n    ${message.split('\n')[0]}`);
    if ((run === 'must' || run === 'mandatory') && counts.failed + counts.error > 0) status = 1;
  }
} catch (error) {
  console.error(error.message);
  status = 2;
} finally {
  proxy.close();
  emulator.child.kill('SIGTERM');
  if (options['keep-reports']) console.log(`\nthe kit's reports: ${reports}`);
  else await rm(reports, { recursive: true, force: true });
}
process.exit(status);
