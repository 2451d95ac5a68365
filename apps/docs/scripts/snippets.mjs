// Every TypeScript block of the site's pages, as programs:
//   node scripts/snippets.mjs extract   writes them to .snippets/ (the site's Run buttons import them)
//   node scripts/snippets.mjs check     extracts, compiles them strictly against the workspace's
//                                       packages, then runs each runnable one against an emulator
// A block that no longer compiles, or fails when run, fails the check with its page and line.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import MarkdownIt from 'markdown-it';
import ts from 'typescript';
import { snippetId, snippetMeta } from './snippet-ids.mjs';

const docsApp = fileURLToPath(new URL('..', import.meta.url));
/** The pages' root: the site, or (for this script's own tests) a folder of pages inside the app. */
const site = process.env.SNIPPETS_SITE || docsApp;
const out = join(site, '.snippets');
/** Pages written by hand: the generated references hold no snippet to check. */
const skipped = new Set(['node_modules', '.vitepress', '.snippets', 'dist', 'public', 'scripts', 'test']);
const generated = ['reference/api/', 'reference/http/'];
/** Long enough for an agent's streamed run; a block that takes longer belongs in `no-run`. */
const RUN_TIMEOUT_MS = 60_000;

async function pages(dir = site) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name)) found.push(...(await pages(path)));
    } else if (entry.name.endsWith('.md')) {
      const page = relative(site, path).replaceAll('\\', '/');
      if (!generated.some((prefix) => page.startsWith(prefix))) found.push(page);
    }
  }
  return found.sort();
}

/**
 * The repository's READMEs (the landing pages on npm): their TypeScript blocks are held to the same
 * rule as the site's, so a quick start cannot drift either. Named relative to the site, `../../…`.
 */
async function readmes() {
  if (site !== docsApp) return [];
  const root = join(docsApp, '..', '..');
  const found = ['README.md'];
  for (const dir of ['packages', 'apps']) {
    for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
      if (entry.isDirectory() && existsSync(join(root, dir, entry.name, 'README.md'))) {
        found.push(`${dir}/${entry.name}/README.md`);
      }
    }
  }
  return found.map((path) => `../../${path}`);
}

/** The blocks of one page, in the order the site numbers them. */
function blocksOf(page, text) {
  const tokens = new MarkdownIt().parse(text, {});
  const blocks = [];
  for (const token of tokens) {
    if (token.type !== 'fence') continue;
    const meta = snippetMeta(token.info);
    if (meta === undefined) continue;
    // token.map[0] is the fence's opening line (0-based); the code starts on the next one.
    const line = (token.map?.[0] ?? 0) + 2;
    blocks.push({ id: snippetId(page, blocks.length), page, line, code: token.content, ...meta });
  }
  return blocks;
}

/**
 * The block as a function the page calls on each Run: its imports stay at the top, the rest
 * becomes the body, with `console` a parameter so what it prints goes to the page's output.
 */
function asRunnable(code) {
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.Latest, true);
  const imports = [];
  const body = [];
  for (const statement of source.statements) {
    (ts.isImportDeclaration(statement) ? imports : body).push(statement.getFullText(source).trim());
  }
  return `${imports.join('\n')}\n\nexport default async function run(console: Console): Promise<void> {\n${body.join('\n')}\n}\n`;
}

async function extract() {
  await rm(out, { recursive: true, force: true });
  await mkdir(join(out, 'src'), { recursive: true });
  await mkdir(join(out, 'run'), { recursive: true });
  const all = [];
  for (const page of [...(await pages()), ...(await readmes())]) {
    const blocks = blocksOf(page, await readFile(join(site, page), 'utf8'));
    for (const block of blocks) {
      await writeFile(join(out, 'src', `${block.id}.ts`), block.code);
      if (block.run) await writeFile(join(out, 'run', `${block.id}.ts`), asRunnable(block.code));
    }
    all.push(...blocks);
  }
  const manifest = all.map(({ code: _code, ...rest }) => rest);
  await writeFile(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // ES modules, so a block may await at its top level as a reader's program would.
  await writeFile(join(out, 'package.json'), '{ "type": "module", "private": true }\n');
  await writeFile(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      extends: join(docsApp, 'tsconfig.base.snippets.json'),
      compilerOptions: {
        rootDir: 'src',
        outDir: 'dist',
        noEmit: false,
        declaration: false,
        sourceMap: false,
        declarationMap: false,
      },
      include: ['src'],
    }),
  );
  return all;
}

/** `src/<id>.ts(3,5): error …` → `guides/qna/search.md:14:5 (block 2): error …` */
function toPageLines(output, blocks) {
  const byId = new Map(blocks.map((b) => [b.id, b]));
  return output.replace(/(?:\.snippets\/)?src\/([^/(]+)\.ts\((\d+),(\d+)\)/g, (whole, id, line, column) => {
    const block = byId.get(id);
    return block === undefined ? whole : `${block.page}:${block.line + Number(line) - 1}:${column} (${id})`;
  });
}

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * One compiled block run as a program of its own, in a worker thread: its own module graph, globals,
 * environment and event loop, as in a process of its own (stdin at its end, `process.exit` and
 * `process.exitCode` its exit code) without starting a Node process per block. A block that throws,
 * rejects or sets a non-zero exit code fails; one still running after `timeout` ms is stopped.
 */
function runBlock(file, env, timeout) {
  return new Promise((resolve) => {
    const worker = new Worker(pathToFileURL(file), { env, stdin: true, stdout: true, stderr: true });
    worker.stdin?.end();
    let output = '';
    worker.stdout.on('data', (chunk) => (output += chunk));
    worker.stderr.on('data', (chunk) => (output += chunk));
    let failure;
    worker.on('error', (error) => {
      failure = error;
    });
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeout / 1000} s)`;
      void worker.terminate();
    }, timeout);
    worker.on('exit', (code) => {
      clearTimeout(timer);
      if (failure !== undefined)
        output += `\n${failure instanceof Error ? (failure.stack ?? failure) : failure}`;
      resolve({ code: failure !== undefined && code === 0 ? 1 : code, output });
    });
  });
}

async function check() {
  const started = performance.now();
  const blocks = await extract();
  const pageCount = new Set(blocks.map((b) => b.page)).size;
  const tsc = join(docsApp, 'node_modules', '.bin', 'tsc');
  const compiled = await run(tsc, ['-p', join(out, 'tsconfig.json')], { cwd: site });
  if (compiled.code !== 0) {
    console.error(toPageLines(compiled.output, blocks));
    console.error(`snippets: ${blocks.length} blocks from ${pageCount} pages; they do not compile (above)`);
    process.exit(1);
  }
  const runnable = blocks.filter((b) => !b.noRun);
  const { startEmulator } = await import('@dataworkz/emulator');
  const apiKey = 'snippets-key';
  const emulator = await startEmulator({ port: 0, apiKeys: [apiKey] });
  const failures = [];
  try {
    const env = { ...process.env, DATAWORKZ_BASE_URL: emulator.url, DATAWORKZ_API_KEY: apiKey };
    const queue = [...runnable];
    const slot = async () => {
      for (let block = queue.shift(); block !== undefined; block = queue.shift()) {
        const file = join(out, 'dist', `${block.id}.js`);
        const result = await runBlock(file, env, RUN_TIMEOUT_MS);
        if (result.code !== 0) failures.push({ block, output: result.output });
      }
    };
    await Promise.all(Array.from({ length: Math.min(2, cpus().length) }, slot));
  } finally {
    await emulator.close();
  }
  for (const { block, output } of failures) {
    console.error(
      `\n✗ ${block.page}:${block.line} (${block.id}) failed against the emulator:\n${output.trim()}`,
    );
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `snippets: ${blocks.length} blocks from ${pageCount} pages compiled; ${runnable.length - failures.length} of ${runnable.length} ran against the emulator (${seconds} s)`,
  );
  if (failures.length > 0) process.exit(1);
}

const command = process.argv[2];
if (command === 'extract') {
  const blocks = await extract();
  console.log(`snippets: ${blocks.length} blocks extracted to ${relative(process.cwd(), out) || '.'}`);
} else if (command === 'check') {
  await check();
} else {
  console.error('usage: node scripts/snippets.mjs extract|check');
  process.exit(2);
}
