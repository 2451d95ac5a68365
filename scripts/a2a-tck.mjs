// `pnpm a2a:tck --tck <path>`: runs the A2A project's conformance kit (a checkout of
// a2aproject/a2a-tck that you made, branch 1.0-dev, its Python dependencies installed) against the
// emulator's A2A v1.0 JSON-RPC interface, one level at a time, and prints the counts per level and each
// failure with its message. Everything stays on loopback: the emulator, and a forward proxy that adds
// the emulator's key to the kit's requests (the kit sends no credentials; the card and the calls need
// them). The kit's own reports are written to a temporary folder, printed at the end.
//
// Options: --tck <path> (required), --python <exe> (default python3; the kit's virtualenv's python, say),
// --level must|should|may (repeatable; default all three), --agent <agentId> (default the Order Status
// Assistant), --keep-reports; what follows `--` goes to pytest as it is.
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
if (!existsSync(join(tck, 'tests/compatibility/conftest.py'))) {
  fail(`${tck} is not an a2a-tck checkout of the 1.0 line (no tests/compatibility/conftest.py).`);
}
const wanted = options.level ?? levels;
for (const level of wanted) if (!levels.includes(level)) fail(`--level must be one of ${levels.join(', ')}.`);

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'packages/emulator/bin/dataworkz-emulator.js');

/** Starts the built emulator on a free loopback port; its card for header-less requests is v1.0's (the kit asks without one). */
async function startEmulator() {
  const child = spawn(
    process.execPath,
    [bin, '--port', '0', '--host', '127.0.0.1', '--a2a-version', '1.0', '--no-console'],
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
 * A forward proxy for the kit's HTTP client (httpx honours HTTP_PROXY): each request goes on to the
 * emulator unchanged but for its `Authorization`, so the card's URLs stay the emulator's own. Requests
 * to anything but the emulator are refused.
 */
function startProxy(target, apiKey) {
  const origin = new URL(target).origin;
  const server = createServer((incoming, outgoing) => {
    let url;
    try {
      url = new URL(incoming.url);
    } catch {
      url = undefined;
    }
    if (!url || url.origin !== origin) {
      outgoing.writeHead(403, { 'content-type': 'text/plain' }).end(`only ${origin} is reachable here\n`);
      return;
    }
    const headers = { ...incoming.headers, authorization: `SSWS ${apiKey}` };
    delete headers['proxy-connection'];
    const forwarded = request(url, { method: incoming.method, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/** Runs the kit's pytest at one level; resolves with its JUnit XML report's path. */
function runLevel(level, sutHost, proxyUrl, reports) {
  const junit = join(reports, `${level}.xml`);
  const args = [
    '-m',
    'pytest',
    'tests/compatibility/',
    `--sut-host=${sutHost}`,
    '--transport=jsonrpc',
    '-m',
    level,
    '--tb=line',
    '-q',
    '-p',
    'no:cacheprovider',
    `--compatibility-report=${join(reports, `${level}-compatibility`)}`,
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
const proxy = await startProxy(emulator.url, emulator.apiKey);
const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
const agent = options.agent ?? (await orderStatusAgentId(emulator));
const sutHost = `${emulator.url}/api/agents/v1/a2a/${encodeURIComponent(agent)}`;
const reports = await mkdtemp(join(tmpdir(), 'a2a-tck-'));
let status = 0;
try {
  console.log(`a2a-tck ${commit}, JSON-RPC, against ${sutHost}`);
  for (const level of wanted) {
    const { counts, failures, skipReasons } = await readReport(
      await runLevel(level, sutHost, proxyUrl, reports),
    );
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    console.log(
      `\n${level.toUpperCase()}: ${total} tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.error} errors, ${counts.xfailed} xfailed, ${counts.skipped} skipped`,
    );
    const skips = [...skipReasons].map(([reason, n]) => `${n} ${reason}`).join('; ');
    if (skips) console.log(`  skipped: ${skips}`);
    for (const { name, message } of failures) console.log(`  ${name}\n    ${message.split('\n')[0]}`);
    if (level === 'must' && counts.failed + counts.error > 0) status = 1;
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
