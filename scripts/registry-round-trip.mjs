// `node scripts/registry-round-trip.mjs [--require-changelog] [--keep]`: the release flow end to end,
// against a throwaway registry. It starts Verdaccio on 127.0.0.1 (installed from npm into a temporary
// folder; our @dataworkz packages are served from its own store only, everything else is proxied to
// npmjs), clones this repository's HEAD, runs `pnpm release` there with npm pointed at Verdaccio through
// the environment alone, and checks what was published: each package at its package.json version,
// manifests without `workspace:` or `catalog:` ranges, tarballs with README.md (and CHANGELOG.md).
// A second `pnpm release` must publish nothing. Then a fresh npm project installs the packages by
// name, compiles scripts/consumer's programs strictly (a Node project, ESM and CommonJS, and a browser
// page), runs them (each starts the emulator with startEmulator, answers a QnA question and streams an
// agent run), runs them again on Node 20, 22 and 24 against the installed emulator's bin with the
// installed CLI beside them (the checks of `pnpm test:consumer`, scripts/consumer-checks.mjs), and
// starts the bins.
//
// --require-changelog fails a package without CHANGELOG.md (`pnpm version-packages` writes them);
// without it, a missing CHANGELOG.md is only a warning. --keep keeps the temporary folder.
//
// Nothing outside the temporary folder is touched: git tags go to the clone, and the publishing steps
// find the registry and a token in the environment and a temporary user config (NPM_CONFIG_USERCONFIG),
// never in ~/.npmrc, which nothing writes.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { compileConsumer, copyConsumer, runConsumer } from './consumer-checks.mjs';
import { checkGettingStarted } from './getting-started-check.mjs';
import { nodeBinary, nodeVersions } from './node-runtimes.mjs';

/** The Verdaccio release, exact; 6.10 needs Node 22 or later and asks for 24, pinned in node-runtimes.mjs. */
const VERDACCIO_VERSION = '6.10.4';
const VERDACCIO_NODE = '24';
const requireChangelog = process.argv.includes('--require-changelog');
const keep = process.argv.includes('--keep');

const root = resolve(import.meta.dirname, '..');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/**
 * The pnpm that `packageManager` names: the one on PATH when it is that version (CI installs it once), else
 * `npx -y pnpm@<version>`, which spends seconds of CPU resolving pnpm on every call.
 */
const pnpm = (() => {
  const wanted = rootManifest.packageManager.replace(/^pnpm@/, '').split('+')[0];
  try {
    const found = execFileSync('pnpm', ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    if (found.trim() === wanted) return { command: 'pnpm', args: [] };
  } catch {}
  return { command: 'npx', args: ['-y', rootManifest.packageManager] };
})();
const MINUTE = 60_000;

const scratch = mkdtempSync(join(tmpdir(), 'dataworkz-registry-'));
const clone = join(scratch, 'repo');
const timings = [];
const started = performance.now();
let verdaccio;
/** What the checks found wrong; each step goes on, so one run lists every problem. */
const problems = [];

/** Runs a command; resolves with its output, rejects with a message that names it and shows its output. */
function run(command, args, { cwd = scratch, env = process.env, timeoutMs = 5 * MINUTE } = {}) {
  const label = `${command} ${args.join(' ')}`;
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      rejectRun(new Error(`${label}: could not start (${error.message})`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolveRun({ stdout, stderr });
      const why =
        signal === 'SIGKILL' ? `no exit within ${timeoutMs / 1000} s` : `exit code ${code ?? signal}`;
      const output = `${stdout}${stderr}`.trimEnd().split('\n').slice(-60).join('\n');
      rejectRun(new Error(`${label} (in ${cwd}): ${why}\n${output.replace(/^/gm, '    ')}`));
    });
  });
}

/** Runs `fn` as one timed step and prints its one-line result. */
async function step(label, fn) {
  const t0 = performance.now();
  const problemsBefore = problems.length;
  const detail = await fn();
  const seconds = (performance.now() - t0) / 1000;
  const found = problems.length - problemsBefore;
  timings.push(`${label} ${seconds.toFixed(0)} s`);
  console.log(
    found === 0
      ? `  ${label}: ${detail} (${seconds.toFixed(1)} s)`
      : `  ${label}: ${found} PROBLEM(S), listed at the end (${seconds.toFixed(1)} s)`,
  );
}

function freePort() {
  return new Promise((resolvePort, rejectPort) => {
    const server = createServer();
    server.once('error', rejectPort);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Starts Verdaccio and resolves once it answers its ping; `verdaccio.stop()` ends it. */
async function startVerdaccio(dir) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const log = join(dir, 'verdaccio.log');
  const bin = join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  const child = spawn(
    nodeBinary(VERDACCIO_NODE),
    // --no-warnings: Verdaccio warns twice, as a process warning, that it runs as root here.
    ['--no-warnings', bin, '--config', join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
    writeFileSync(log, output);
  });
  verdaccio = {
    url,
    output: () => output,
    stop: () =>
      new Promise((done) => {
        if (exited) return done();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
  const deadline = Date.now() + MINUTE;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`Verdaccio exited at start:\n${output}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) return verdaccio;
    } catch {
      // Not listening yet.
    }
    await new Promise((wait) => setTimeout(wait, 200));
  }
  throw new Error(`Verdaccio did not answer ${url}-/ping within a minute:\n${output}`);
}

/**
 * Each published package's registry state and tarball, checked against its package.json in the clone;
 * resolves with `{ name, file }` per package, the tarballs as the registry serves them.
 */
async function checkPublished(packages, npmEnv, missingChangelogs) {
  const packs = join(scratch, 'packs');
  mkdirSync(packs, { recursive: true });
  return Promise.all(
    packages.map(async ({ name, dir, version }) => {
      const view = JSON.parse(
        (
          await run('npm', ['view', name, 'version', 'versions', '--json', '--registry', verdaccio.url], {
            env: npmEnv,
          })
        ).stdout,
      );
      const versions = [view.versions].flat();
      if (view.version !== version)
        problems.push(`${name}: the registry has ${view.version}, package.json says ${version}`);
      if (versions.length !== 1)
        problems.push(`${name}: the registry has ${versions.length} versions (${versions.join(', ')})`);

      const [packed] = JSON.parse(
        (
          await run(
            'npm',
            [
              'pack',
              `${name}@${version}`,
              '--json',
              '--pack-destination',
              packs,
              '--registry',
              verdaccio.url,
            ],
            { env: npmEnv },
          )
        ).stdout,
      );
      const files = new Set(packed.files.map((file) => file.path));
      if (!files.has('README.md')) problems.push(`${name}: README.md is not in the tarball`);
      if (existsSync(join(clone, dir, 'CHANGELOG.md'))) {
        if (!files.has('CHANGELOG.md'))
          problems.push(`${name}: CHANGELOG.md exists but is not in the tarball`);
      } else if (requireChangelog) {
        problems.push(`${name}: ${dir}/CHANGELOG.md is missing (pnpm version-packages writes it)`);
      } else {
        missingChangelogs.push(name);
      }

      const unpacked = join(packs, packed.filename.replace(/\.tgz$/, ''));
      mkdirSync(unpacked);
      execFileSync('tar', ['-xzf', join(packs, packed.filename), '-C', unpacked, 'package/package.json']);
      const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
        for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
          if (/^(workspace|catalog):/.test(range)) {
            problems.push(`${name}: ${field}.${dependency} is "${range}" in the published package.json`);
          }
        }
      }
      return { name, file: join(packs, packed.filename) };
    }),
  );
}

/** Starts dataworkz-mcp on stdio, initializes an MCP session and lists the tools; resolves with both answers. */
function mcpHandshake(project, env) {
  return new Promise((resolveHandshake, rejectHandshake) => {
    const child = spawn(join(project, 'node_modules', '.bin', 'dataworkz-mcp'), [], {
      cwd: project,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const answers = new Map();
    const finish = (error) => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      if (error) rejectHandshake(new Error(`dataworkz-mcp on stdio: ${error}${stderr ? `\n${stderr}` : ''}`));
      else resolveHandshake({ initialize: answers.get(1), tools: answers.get(2) });
    };
    const timer = setTimeout(() => finish('no answer within 30 s'), 30_000);
    child.once('error', (error) => finish(error.message));
    child.once('exit', (code) => finish(`exited with code ${code} before answering`));
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return finish(`stdout carried a line that is not a protocol message: ${line}`);
      }
      answers.set(message.id, message.result ?? message);
      if (message.id === 1) {
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      }
      if (message.id === 2) {
        child.removeAllListeners('exit');
        finish();
      }
    });
    const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'round-trip', version: '0' },
      },
    });
  });
}

/** Starts the emulator's bin on a free port and stops it once it prints its URL. */
function emulatorBinStarts(project) {
  return new Promise((resolveStart, rejectStart) => {
    const child = spawn(join(project, 'node_modules', '.bin', 'dataworkz-emulator'), ['--port', '0'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rejectStart(new Error('dataworkz-emulator printed no URL within 30 s'));
    }, 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rejectStart(new Error(`dataworkz-emulator exited with code ${code}`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const url = /listening on (\S+)/.exec(line)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.kill('SIGTERM');
      resolveStart(url);
    });
  });
}

async function main() {
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).trim();
  console.log(`Registry round trip of HEAD ${head}, in ${scratch}`);
  if (dirty !== '') {
    console.log(
      `  note: ${dirty.split('\n').length} uncommitted change(s) are not part of it: it releases HEAD`,
    );
  }
  // Verdaccio's Node (pinned, installed from npm on first use), before anything runs in parallel.
  nodeBinary(VERDACCIO_NODE);

  const registryDir = join(scratch, 'verdaccio');
  mkdirSync(registryDir);
  await step('setup', async () => {
    await Promise.all([
      (async () => {
        // verdaccio-audit asks for node-fetch by its `cjs` dist-tag, which the registry CI reaches does
        // not carry: the override names the version that tag points to.
        writeFileSync(
          join(registryDir, 'package.json'),
          `${JSON.stringify({ private: true, dependencies: { verdaccio: VERDACCIO_VERSION }, overrides: { 'node-fetch': '2.7.0' } }, null, 2)}\n`,
        );
        await run('npm', ['install', '--prefix', registryDir, '--no-audit', '--no-fund', '--loglevel=error']);
        writeFileSync(
          join(registryDir, 'config.yaml'),
          [
            'storage: ./storage',
            'auth:',
            '  htpasswd:',
            '    file: ./htpasswd',
            '    max_users: -1',
            'uplinks:',
            '  npmjs:',
            '    url: https://registry.npmjs.org/',
            'packages:',
            // Ours: from this store only, never from npmjs, and anyone may publish.
            "  '@dataworkz/*':",
            '    access: $all',
            '    publish: $all',
            "  '**':",
            '    access: $all',
            '    publish: $authenticated',
            '    proxy: npmjs',
            'max_body_size: 50mb',
            'web:',
            '  enable: false',
            'log: { type: stdout, format: pretty, level: warn }',
            '',
          ].join('\n'),
        );
        await startVerdaccio(registryDir);
      })(),
      (async () => {
        await run('git', ['clone', '--quiet', root, clone]);
        // changeset publish tags with `git tag -m`, which needs an identity: the clone's own.
        await run('git', ['config', 'user.name', 'Registry round trip'], { cwd: clone });
        await run('git', ['config', 'user.email', 'round-trip@localhost'], { cwd: clone });
        await run(pnpm.command, [...pnpm.args, 'install', '--frozen-lockfile'], { cwd: clone });
      })(),
    ]);
    return `Verdaccio ${VERDACCIO_VERSION} at ${verdaccio.url} (Node ${nodeVersions[VERDACCIO_NODE]}); HEAD cloned and installed`;
  });

  if (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).scripts?.release === undefined) {
    throw new Error(`HEAD (${head}) has no "release" script in package.json: commit the release flow first`);
  }
  const { publishedPackages } = await import(
    pathToFileURL(join(clone, 'scripts', 'published-packages.mjs')).href
  );
  const packages = publishedPackages.map(({ name, dir }) => ({
    name,
    dir,
    version: JSON.parse(readFileSync(join(clone, dir, 'package.json'), 'utf8')).version,
  }));

  // npm (and pnpm, and changeset publish, which read the same variables) pointed at Verdaccio by the
  // environment alone: a user config of our own with a token Verdaccio accepts for anonymous publishing.
  const npmrc = join(scratch, 'npmrc');
  const registryHost = verdaccio.url.replace(/^http:/, '');
  writeFileSync(npmrc, `${registryHost}:_authToken=fake\nupdate-notifier=false\nfund=false\naudit=false\n`);
  const npmEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_config_(registry|userconfig|provenance|@dataworkz:registry)$/i.test(key),
    ),
  );
  Object.assign(npmEnv, { npm_config_registry: verdaccio.url, NPM_CONFIG_USERCONFIG: npmrc });

  // Each run's output is kept in the temporary folder (see --keep). The clone shares this checkout's
  // turbo cache: a commit built here already is restored, not built again (twice), and what is restored
  // is what a clean build of the same sources wrote (each package's build starts by removing its dist/).
  let releases = 0;
  const release = async () => {
    const result = await run(pnpm.command, [...pnpm.args, 'release'], {
      cwd: clone,
      env: { ...npmEnv, TURBO_CACHE_DIR: join(root, '.turbo', 'cache') },
      timeoutMs: 10 * MINUTE,
    });
    releases += 1;
    writeFileSync(join(scratch, `release-${releases}.log`), `${result.stdout}${result.stderr}`);
    return result;
  };
  const missingChangelogs = [];
  const tags = () =>
    execFileSync('git', ['tag', '--list', '@dataworkz/*'], { cwd: clone, encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);

  await step('pnpm release', async () => {
    await release();
    const expected = packages.map(({ name, version }) => `${name}@${version}`);
    const missing = expected.filter((tag) => !tags().includes(tag));
    if (missing.length > 0) problems.push(`pnpm release created no git tag ${missing.join(', ')}`);
    return `built (dist/ removed first) and published ${packages.length} packages; ${tags().length} git tags in the clone`;
  });

  let packed = [];
  await step('registry checks', async () => {
    packed = await checkPublished(packages, npmEnv, missingChangelogs);
    return `${packages.map(({ name, version }) => `${name.replace('@dataworkz/', '')}@${version}`).join(', ')}; no workspace:/catalog: range`;
  });

  await step('pnpm release again', async () => {
    const tagsBefore = tags().length;
    const { stdout, stderr } = await release();
    if (!`${stdout}${stderr}`.includes('No unpublished projects to publish')) {
      problems.push(
        `the second pnpm release did not say "No unpublished projects to publish":\n${stdout}${stderr}`,
      );
    }
    for (const { name } of packages) {
      const view = JSON.parse(
        (await run('npm', ['view', name, 'versions', '--json', '--registry', verdaccio.url], { env: npmEnv }))
          .stdout,
      );
      if ([view].flat().length !== 1)
        problems.push(`${name}: ${[view].flat().length} versions after the second release`);
    }
    if (tags().length !== tagsBefore) problems.push('the second pnpm release created git tags');
    return 'exit 0, nothing published, no new tag';
  });

  // Getting started as a newcomer follows it: the box's project, the tarballs installed with the lines
  // `pnpm pack:all` prints, the page's snippets compiled and run (scripts/getting-started-check.mjs).
  await step('getting started from the packs', async () => {
    const found = await checkGettingStarted(
      join(clone, 'apps', 'docs', 'getting-started.md'),
      packed,
      join(scratch, 'getting-started'),
    );
    problems.push(...found);
    return found.length === 0 ? "the box's project, the printed install lines, tsc and tsx ran" : 'FAILED';
  });

  // A user's project: scripts/consumer's tsconfig and programs (from the clone), the packages by name.
  const project = join(scratch, 'project');
  await step('npm install by name', async () => {
    mkdirSync(project);
    const consumer = join(clone, 'scripts', 'consumer');
    const manifest = JSON.parse(readFileSync(join(consumer, 'package.json'), 'utf8'));
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ ...manifest, type: 'module' }, null, 2)}\n`,
    );
    copyConsumer(consumer, project);
    // The integrations' peers, at the versions the repository tests them with.
    const devVersion = (dir, name) =>
      `${name}@${JSON.parse(readFileSync(join(clone, dir, 'package.json'), 'utf8')).devDependencies[name]}`;
    const peers = [
      devVersion('packages/ai-sdk', 'ai'),
      devVersion('packages/ai-sdk', 'zod'),
      devVersion('packages/langchain', '@langchain/core'),
    ];
    await run(
      'npm',
      [
        'install',
        '--engine-strict',
        '--registry',
        verdaccio.url,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...packages.map((p) => p.name),
        ...peers,
      ],
      { cwd: project, env: npmEnv },
    );
    // One copy of each of our packages, at the version just published.
    const tree = JSON.parse(
      (await run('npm', ['ls', '--all', '--json'], { cwd: project, env: npmEnv })).stdout,
    );
    const found = new Map();
    const walk = (dependencies = {}) => {
      for (const [name, node] of Object.entries(dependencies)) {
        if (name.startsWith('@dataworkz/'))
          found.set(name, new Set([...(found.get(name) ?? []), node.version]));
        walk(node.dependencies);
      }
    };
    walk(tree.dependencies);
    for (const { name, version } of packages) {
      const versions = [...(found.get(name) ?? [])];
      if (versions.length !== 1 || versions[0] !== version) {
        problems.push(`${name}: installed as ${versions.join(', ') || 'nothing'}, expected ${version} once`);
      }
    }
    return `${packages.length} packages and ${peers.join(', ')} from Verdaccio`;
  });

  await step('consumer programs', async () => {
    const compileProblems = compileConsumer(project);
    problems.push(...compileProblems);
    // No DATAWORKZ_BASE_URL: each program starts the emulator itself.
    const env = { ...process.env };
    delete env.DATAWORKZ_BASE_URL;
    delete env.DATAWORKZ_API_KEY;
    const outputs = [];
    for (const program of ['esm.mjs', 'commonjs.cjs']) {
      const { stdout } = await run(process.execPath, [join('dist', program)], {
        cwd: project,
        env,
        timeoutMs: MINUTE,
      });
      outputs.push(stdout);
    }
    console.log(outputs[0].trimEnd());
    if (outputs[1] !== outputs[0]) console.log(`  commonjs.cjs printed:\n${outputs[1].trimEnd()}`);
    // Every package loads by name, through import and require().
    const names = JSON.stringify(packages.map((p) => p.name));
    await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createRequire } from 'node:module';
         const require = createRequire(process.cwd() + '/');
         for (const name of ${names}) {
           if (Object.keys(await import(name)).length === 0) throw new Error(name + ' exports nothing');
           require(name);
         }`,
      ],
      { cwd: project },
    );
    return `tsc strict (Node and browser settings) ${compileProblems.length === 0 ? 'passed' : 'FAILED'}; esm.mjs and commonjs.cjs ran on Node ${process.versions.node}, each starting the emulator; ${packages.length} packages import and require()`;
  });

  // The same programs on every Node version users run, against the installed emulator's bin, with
  // the installed CLI beside them (what `pnpm test:consumer` checks on the packed tarballs).
  const runtimes = new Map([[process.version, process.execPath]]);
  for (const major of Object.keys(nodeVersions)) runtimes.set(`v${nodeVersions[major]}`, nodeBinary(major));
  await step(`consumer on Node ${[...runtimes.keys()].join(', ')}`, async () => {
    const runProblems = await runConsumer(project, runtimes, npmEnv);
    problems.push(...runProblems);
    return runProblems.length === 0
      ? 'npm install --engine-strict, esm.mjs, commonjs.cjs and dataworkz qna systems ran'
      : 'FAILED';
  });

  await step('bins', async () => {
    const bin = (name) => join(project, 'node_modules', '.bin', name);
    const cliHelp = await run(bin('dataworkz'), ['--help'], { cwd: project, timeoutMs: MINUTE });
    if (!/Usage: dataworkz/.test(cliHelp.stdout))
      problems.push(`dataworkz --help printed no usage:\n${cliHelp.stdout}`);
    const mcpHelp = await run(bin('dataworkz-mcp'), ['--help'], { cwd: project, timeoutMs: MINUTE });
    if (!/Usage: dataworkz-mcp/.test(mcpHelp.stderr))
      problems.push(`dataworkz-mcp --help printed no usage:\n${mcpHelp.stderr}`);
    // The MCP server on stdio answers initialize and tools/list without calling the service.
    const mcpVersion = packages.find((p) => p.name === '@dataworkz/mcp')?.version;
    const { initialize, tools } = await mcpHandshake(project, {
      ...process.env,
      DATAWORKZ_BASE_URL: 'http://127.0.0.1:9',
      DATAWORKZ_API_KEY: 'unused',
    });
    if (initialize?.serverInfo?.version !== mcpVersion) {
      problems.push(
        `dataworkz-mcp reported ${JSON.stringify(initialize?.serverInfo)}, expected version ${mcpVersion}`,
      );
    }
    const toolCount = tools?.tools?.length ?? 0;
    if (toolCount === 0) problems.push(`dataworkz-mcp listed no tools: ${JSON.stringify(tools)}`);
    const emulatorUrl = await emulatorBinStarts(project);
    return `dataworkz --help, dataworkz-mcp --help, dataworkz-mcp on stdio (${initialize?.serverInfo?.name} ${initialize?.serverInfo?.version}, ${toolCount} tools), dataworkz-emulator (${emulatorUrl})`;
  });

  if (missingChangelogs.length > 0) {
    const names = packages.filter((p) => missingChangelogs.includes(p.name)).map((p) => p.name);
    console.log(
      `  warning: no CHANGELOG.md in ${names.length} package(s), so none in their tarballs: ${names.join(', ')}. ` +
        '`pnpm version-packages` writes them; --require-changelog makes this an error.',
    );
  }
  if (problems.length > 0)
    throw new Error(`${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  const total = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `\nregistry round trip: published ${packages.length} packages to Verdaccio, re-released nothing, installed by name, compiled, ran and started the bins in ${total} s (${timings.join(', ')})`,
  );
}

async function cleanUp() {
  await verdaccio?.stop();
  if (keep) console.log(`  kept ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    cleanUp().finally(() => process.exit(1));
  });
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  console.error(`\nregistry round trip FAILED: ${error.message}`);
  const log = verdaccio?.output().trim();
  if (log) console.error(`Verdaccio's log:\n${log.split('\n').slice(-30).join('\n').replace(/^/gm, '    ')}`);
  if (!keep) console.error('(--keep keeps the clone, the project and the release logs for a look)');
} finally {
  await cleanUp();
}
