// After `vitepress build`: what the build itself does not fail on. Every page has its own title
// and description and no placeholder; llms.txt and llms-full.txt are there; the TypeScript API
// reference names every public export of every public package, says what each is, and shows the
// client's data types by their fields.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const site = fileURLToPath(new URL('..', import.meta.url));
const dist = join(site, 'dist');
const packagesDir = fileURLToPath(new URL('../../../packages/', import.meta.url));
const problems = [];

async function files(dir, suffix) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await files(path, suffix)));
    else if (entry.name.endsWith(suffix)) found.push(path);
  }
  return found;
}

const pages = (await files(dist, '.html')).filter((p) => !p.endsWith('404.html'));
const titles = new Map();
for (const page of pages) {
  const html = await readFile(page, 'utf8');
  const name = relative(dist, page);
  const title = html.match(/<title>([^<]*)<\/title>/)?.[1] ?? '';
  const description = html.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? '';
  if (title.trim() === '') problems.push(`${name}: no title`);
  if (!name.startsWith('reference/api/') && (description.trim() === '' || /\bTODO\b/.test(description))) {
    problems.push(`${name}: no description of its own (set \`description\` in its front matter)`);
  }
  const main = html.match(/<main[\s\S]*<\/main>/)?.[0] ?? '';
  if (/\bTODO\b/.test(main)) problems.push(`${name}: a placeholder (TODO) is left in the page`);
  titles.set(title, [...(titles.get(title) ?? []), name]);
}

for (const file of ['llms.txt', 'llms-full.txt']) {
  const path = join(dist, file);
  if (!existsSync(path) || (await readFile(path, 'utf8')).length < 1000)
    problems.push(`${file}: missing or empty`);
}

/**
 * The names each package entry exports, types included, read from its built declarations: one
 * program for all of them, so the libraries they share are parsed once.
 * @param {string[]} declarations
 */
function exportsOf(declarations) {
  const program = ts.createProgram(declarations, { noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  return new Map(
    declarations.map((file) => {
      const source = program.getSourceFile(file);
      const module = source && checker.getSymbolAtLocation(source);
      return [file, module ? checker.getExportsOfModule(module).map((s) => s.name) : []];
    }),
  );
}

// The client's types generated from the spec, as openapi-typescript writes them (no comment of their own).
const generated = new Set(['components.md', 'operations.md', 'paths.md']);

/** Whether a symbol's reference page says what the symbol is: text between its title and its sections. */
function hasSummary(markdown) {
  const afterTitle = markdown.split(/^# .*$/m)[1] ?? '';
  const lead = afterTitle.replace(/```[\s\S]*?```/g, '').split(/^## /m)[0];
  return lead.split('\n').some((line) => line.trim() !== '' && !/^[|>#*]/.test(line.trim()));
}

// A package's `./internal` subpath holds what the other @dataworkz packages build on, under no semver
// promise: the reference leaves it out (as the API reports do), so it is not checked against it.
const internalSubpath = './internal';

// Each public package: every entry of its exports map that has types (the main one and any public
// subpath), and the names its reference pages document.
const checked = [];
for (const dir of await readdir(packagesDir)) {
  const manifest = JSON.parse(await readFile(join(packagesDir, dir, 'package.json'), 'utf8'));
  if (manifest.private) continue;
  const entries = Object.entries(manifest.exports ?? {})
    .filter(([subpath]) => subpath !== internalSubpath)
    .map(([, target]) => target)
    .map((target) => (typeof target === 'object' && target !== null ? target.types : undefined))
    .filter((types) => typeof types === 'string')
    .map((types) => join(packagesDir, dir, types));
  const reference = join(site, 'reference', 'api', ...manifest.name.split('/'));
  if (entries.length === 0 || entries.some((entry) => !existsSync(entry)) || !existsSync(reference)) {
    problems.push(`${manifest.name}: no built declarations or no reference pages`);
    continue;
  }
  const documented = new Set();
  for (const file of await files(reference, '.md')) {
    const text = await readFile(file, 'utf8');
    // A data type shown as the helper it is written with, or a field's text under a tag's heading:
    // the client's types are documented with the spec's words (scripts/typedoc-schema-docs.mjs).
    const where = relative(site, file);
    if (text.includes('Schemas[')) problems.push(`${where}: a type shown as Schemas[...], not its fields`);
    if (text.includes('**Description**')) problems.push(`${where}: an @description tag shown as a heading`);
    if (!file.endsWith('/index.md') && !generated.has(file.split('/').at(-1)) && !hasSummary(text)) {
      problems.push(`${where}: no summary (give the export a doc comment)`);
    }
    documented.add(file.split('/').at(-1).replace(/\.md$/, ''));
    for (const match of text.matchAll(/^#+ (?:~~)?([A-Za-z_$][\w$]*)/gm)) documented.add(match[1]);
    for (const match of text.matchAll(/\[([A-Za-z_$][\w$]*)\]\(/g)) documented.add(match[1]);
  }
  checked.push({ name: manifest.name, entries, documented });
}

const exported = exportsOf(checked.flatMap((pkg) => pkg.entries));
let exportCount = 0;
for (const { name: packageName, entries, documented } of checked) {
  for (const entry of entries) {
    for (const name of exported.get(entry) ?? []) {
      exportCount++;
      if (name !== 'default' && !documented.has(name)) {
        problems.push(
          `${packageName} (${relative(packagesDir, entry)}): export ${name} is not in the API reference`,
        );
      }
    }
  }
}

if (problems.length > 0) {
  console.error(problems.map((p) => `✗ ${p}`).join('\n'));
  console.error(`site: ${problems.length} problem(s) in ${pages.length} pages`);
  process.exit(1);
}
console.log(
  `site: ${pages.length} pages, each with a title and description; llms.txt and llms-full.txt; ${exportCount} public exports in the API reference`,
);
