// The API report of every published package: the public types as users see them, from the built .d.ts.
//   node scripts/api-report.mjs           rewrite packages/<name>/api/<name>.api.md
//   node scripts/api-report.mjs --check   fail, with a diff, where a committed report differs
// One config per entry point: packages/<name>/api-extractor.json for `.` (src/index.ts), and an
// api-extractor.<entry>.json with its own reportFileName for any other `exports` entry with types.
// All extend api-extractor.base.jsonc. Expects dist/ built (the root scripts run turbo first).
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { publishedPackages } from './published-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const diffLines = 40;

// API Extractor's own notes about the report file, replaced by the summary below.
const reportMessages = new Set([
  'console-api-report-not-copied',
  'console-api-report-copied',
  'console-api-report-created',
  'console-api-report-unchanged',
]);

const rel = (file) => path.relative(root, file).split(path.sep).join('/');

// A package's `./internal` subpath holds what the other @dataworkz packages build on: documented as
// internal, under no semver promise, so it has no report (and the reference leaves it out too).
const internalSubpath = './internal';

// Every .d.ts a package's `exports` map (or its top-level `types`) hands to TypeScript users, but the
// internal subpath's.
function exportedTypes(pkgDir) {
  const manifest = JSON.parse(readFileSync(path.join(root, pkgDir, 'package.json'), 'utf8'));
  const found = new Map();
  const walk = (subpath, target) => {
    if (target === null || typeof target !== 'object') return;
    for (const [key, value] of Object.entries(target)) {
      if (key === 'types' && typeof value === 'string') found.set(path.resolve(root, pkgDir, value), subpath);
      else walk(subpath, value);
    }
  };
  const { exports } = manifest;
  const subpaths =
    exports && typeof exports === 'object' && Object.keys(exports).every((key) => key.startsWith('.'))
      ? Object.entries(exports)
      : [['.', exports]];
  for (const [subpath, target] of subpaths) if (subpath !== internalSubpath) walk(subpath, target);
  if (typeof manifest.types === 'string') found.set(path.resolve(root, pkgDir, manifest.types), '.');
  return found;
}

function configsOf(pkgDir) {
  return readdirSync(path.join(root, pkgDir))
    .filter((file) => /^api-extractor(\.[\w-]+)?\.json$/.test(file))
    .sort()
    .map((file) => path.join(root, pkgDir, file));
}

function runOne(pkg, configFile) {
  const outcome = {
    label: `${pkg.name} (${rel(configFile)})`,
    problems: [],
    notes: [],
    diff: '',
    changed: false,
  };
  let config;
  try {
    config = ExtractorConfig.loadFileAndPrepare(configFile);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // A missing entry .d.ts is most often an unbuilt package.
    const hint = text.includes('"mainEntryPointFilePath" path does not exist') ? ' (is it built?)' : '';
    outcome.problems.push(text + hint);
    return outcome;
  }
  outcome.entry = config.mainEntryPointFilePath;
  outcome.report = rel(path.join(config.reportFolder, `${config.reportConfigs[0]?.fileName}`));
  // A first report needs its folder; API Extractor creates only the file.
  if (!check) mkdirSync(config.reportFolder, { recursive: true });
  try {
    const result = Extractor.invoke(config, {
      localBuild: !check,
      printApiReportDiff: check,
      messageCallback(message) {
        message.handled = true;
        if (message.messageId === 'console-api-report-diff') {
          outcome.diff = message.text;
          return;
        }
        if (message.messageId === 'console-compiler-version-notice') {
          outcome.notes.push(message.text);
          return;
        }
        if (reportMessages.has(message.messageId)) return;
        if (message.logLevel !== 'error' && message.logLevel !== 'warning') return;
        const where = message.sourceFilePath
          ? `${rel(message.sourceFilePath)}:${message.sourceFileLine}:${message.sourceFileColumn}: `
          : '';
        outcome.problems.push(`${message.logLevel} ${where}(${message.messageId}) ${message.text}`);
      },
    });
    outcome.changed = result.apiReportChanged;
  } catch (error) {
    outcome.problems.push(error instanceof Error ? error.message : String(error));
  }
  return outcome;
}

// The diff without its file header, cut short: the full one is `git diff` after `pnpm api:report`.
function shortDiff(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('@@'));
  const body = lines.slice(start === -1 ? 0 : start).filter((line, i, all) => i < all.length - 1 || line);
  const shown = body.slice(0, diffLines).map((line) => `    ${line}`);
  if (body.length > diffLines) shown.push(`    … ${body.length - diffLines} more lines`);
  return shown.join('\n');
}

const started = performance.now();
const outcomes = [];
for (const pkg of publishedPackages) {
  const entries = new Set();
  for (const configFile of configsOf(pkg.dir)) {
    const outcome = runOne(pkg, configFile);
    outcomes.push(outcome);
    if (outcome.entry) entries.add(outcome.entry);
  }
  // Every typed entry of the exports map must have its report, or a new subpath would ship unguarded.
  for (const [types, subpath] of exportedTypes(pkg.dir)) {
    if (!entries.has(types)) {
      outcomes.push({
        label: pkg.name,
        problems: [`exports '${subpath}' (${rel(types)}) has no api-extractor*.json in ${pkg.dir}`],
        notes: [],
        changed: false,
      });
    }
  }
}

let broken = 0;
let outdated = 0;
for (const outcome of outcomes) {
  for (const note of outcome.notes) console.log(`api: ${outcome.label}: ${note}`);
  if (outcome.problems.length > 0) {
    broken++;
    console.error(`api: ${outcome.label}:`);
    for (const problem of outcome.problems) console.error(`  ${problem}`);
  }
  if (!outcome.changed) continue;
  if (!check) {
    console.log(`api: updated ${outcome.report}`);
    continue;
  }
  outdated++;
  if (outcome.diff) {
    console.error(`api: ${outcome.label}: the public API differs from ${outcome.report}:`);
    console.error(shortDiff(outcome.diff));
  } else {
    console.error(`api: ${outcome.label}: ${outcome.report} is missing`);
  }
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
const reports = outcomes.filter((outcome) => outcome.report).length;
if (outdated > 0) {
  console.error(
    `api: ${outdated} of ${reports} API reports out of date (${seconds} s).\n` +
      '  Run `pnpm api:report` and commit the report with a changeset of the matching bump: minor for\n' +
      '  additions, major for removals or incompatible changes (below 1.0, a minor marked breaking);\n' +
      '  see CONTRIBUTING.md, "Public API and versions".',
  );
}
if (broken > 0) console.error(`api: ${broken} failing, see above (${seconds} s).`);
if (outdated + broken > 0) {
  process.exitCode = 1;
} else {
  const updated = outcomes.filter((outcome) => outcome.changed).length;
  const state = updated > 0 ? `${updated} of ${reports} updated` : `${reports} up to date`;
  console.log(`api: API reports ${state} (${seconds} s).`);
}
