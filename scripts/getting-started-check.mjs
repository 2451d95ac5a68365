// Getting started, followed as written: a fresh folder holding the page's package.json and
// tsconfig.json (its "project these snippets assume" box), installed from packed tarballs with the
// getting-started commands `pnpm pack:all` prints, then the page's TypeScript blocks saved as files, checked with
// `npx tsc --noEmit` and run with `npx tsx` against the installed emulator's bin. The registry round
// trip runs it on the tarballs it downloads, so neither the box nor the printed lines can drift.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiKey, startEmulatorBin } from './consumer-checks.mjs';
import { installCommands } from './pack-all.mjs';

const PROGRAM_TIMEOUT_MS = 60_000;

/**
 * The page's fenced blocks: files named in the fence (```json [package.json]) and TypeScript blocks
 * with their flags (`run`, `no-run`), in the page's order.
 * @param {string} markdown
 */
export function gettingStartedBlocks(markdown) {
  const files = new Map();
  const snippets = [];
  // Fences may sit inside a ::: container; their content is never indented on this page.
  for (const [, info, code] of markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const [lang, ...words] = info.trim().split(/\s+/);
    const name = /\[([^\]]+)\]/.exec(info)?.[1];
    if (name !== undefined) files.set(name, code);
    else if (lang === 'ts') snippets.push({ code, noRun: words.includes('no-run') });
  }
  return { files, snippets };
}

/**
 * Builds the project in `project` (a folder that does not exist yet) from the page `pagePath` and the
 * tarballs `packed` ({ name, file } per package), checks and runs its snippets; returns the problems.
 */
export async function checkGettingStarted(pagePath, packed, project) {
  const problems = [];
  const { files, snippets } = gettingStartedBlocks(readFileSync(pagePath, 'utf8'));
  for (const needed of ['package.json', 'tsconfig.json']) {
    if (!files.has(needed)) return [`getting started: no \`${needed}\` block in its box`];
  }
  if (snippets.length === 0) return ['getting started: no TypeScript block'];
  mkdirSync(project);
  for (const [name, content] of files) writeFileSync(join(project, name), content);
  const sh = (command, args, env = process.env) =>
    execFileSync(command, args, {
      cwd: project,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 5 * PROGRAM_TIMEOUT_MS,
    });
  // The first printed line also installs the box's devDependencies (npm installs package.json's too).
  for (const args of installCommands(packed).quickStart) {
    // --engine-strict: on the floor (CI's own Node 20), an `engines` that excludes it fails the install.
    sh('npm', [
      ...args,
      '--engine-strict',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--prefer-offline',
    ]);
  }
  const names = snippets.map((_, index) => `snippet-${index + 1}.ts`);
  snippets.forEach(({ code }, index) => {
    writeFileSync(join(project, names[index]), code);
  });
  try {
    sh('npx', ['--no-install', 'tsc', '--noEmit', '--pretty', 'false']);
    console.log(`  npx tsc --noEmit: ${names.length} snippets compile under the box's tsconfig.json`);
  } catch (error) {
    problems.push(`getting started: npx tsc --noEmit failed\n${error.stdout}${error.stderr}`);
  }
  const emulator = await startEmulatorBin(project, process.execPath);
  const env = { ...process.env, DATAWORKZ_BASE_URL: emulator.url, DATAWORKZ_API_KEY: apiKey };
  try {
    snippets.forEach(({ noRun }, index) => {
      if (noRun) return;
      try {
        const output = sh('npx', ['--no-install', 'tsx', names[index]], env);
        console.log(`  npx tsx ${names[index]}: ok\n${output.trimEnd().replace(/^/gm, '    ')}`);
        // A printed answer is trimmed: the service's text may start with blank lines.
        if (/(^|\n)[ \t]*\n/.test(output))
          problems.push(`getting started: ${names[index]} printed a blank line`);
      } catch (error) {
        problems.push(`getting started: npx tsx ${names[index]} failed\n${error.stdout}${error.stderr}`);
      }
    });
  } finally {
    await emulator.stop();
  }
  return problems;
}
