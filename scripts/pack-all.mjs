// `pnpm pack:all` packs every published package into packs/ (the root script builds them first): the
// tarballs npm users would receive, with `workspace:` and `catalog:` versions written out. It prints the
// command that installs them together in any other project.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { publishedPackages } from './published-packages.mjs';

const root = resolve(import.meta.dirname, '..');

/** Packs each published package into `destination`; returns `{ name, file }` per package, in order. */
export function packPublished(destination) {
  mkdirSync(destination, { recursive: true });
  return publishedPackages.map(({ name, dir }) => {
    let output;
    try {
      output = execFileSync('pnpm', ['pack', '--pack-destination', destination, '--json'], {
        cwd: join(root, dir),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      if (error.code === 'ENOENT') throw new Error('pnpm is not on PATH: run this through a pnpm script');
      throw new Error(`pnpm pack failed for ${name}:\n${error.stderr || error.message}`);
    }
    return { name, file: JSON.parse(output).filename };
  });
}

/** What getting started installs: the client and the A2A package with the packages they depend on. */
const quickStart = [
  '@dataworkz/context-values',
  '@dataworkz/redaction',
  '@dataworkz/client',
  '@dataworkz/a2a',
];
/** Tools a project runs, not ships: installed as devDependencies. */
const tools = new Set(['@dataworkz/emulator', '@dataworkz/cli']);

/**
 * The `npm install` commands that put packed tarballs into a project, as `{ quickStart, rest }`: first
 * what getting started needs (the client and @dataworkz/a2a as dependencies, the emulator as a
 * devDependency), then the other packages (the MCP server and the integrations, the CLI as a
 * devDependency). Each command runs after the ones before it: npm finds a tarball's @dataworkz
 * dependencies installed already (a2a needs client and context-values, the emulator context-values
 * and redaction, the CLI the emulator) and never looks for an unpublished version in the registry.
 * Getting started prints the first two, and CI installs its scratch project with exactly them.
 * @param {{ name: string, file: string }[]} packed
 * @returns {{ quickStart: string[][], rest: string[][] }} each command's arguments after `npm`
 */
export function installCommands(packed) {
  const files = (keep) => packed.filter(keep).map((p) => p.file);
  const inQuickStart = (p) => quickStart.includes(p.name);
  return {
    quickStart: [
      ['install', ...files(inQuickStart)],
      ['install', '--save-dev', ...files((p) => p.name === '@dataworkz/emulator')],
    ],
    rest: [
      ['install', ...files((p) => !inQuickStart(p) && !tools.has(p.name))],
      ['install', '--save-dev', ...files((p) => p.name === '@dataworkz/cli')],
    ],
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const destination = join(root, 'packs');
  // Tarballs of earlier versions would be installed alongside the new ones: start from an empty folder.
  mkdirSync(destination, { recursive: true });
  for (const file of readdirSync(destination, { withFileTypes: true }).filter((f) =>
    f.name.endsWith('.tgz'),
  )) {
    rmSync(join(destination, file.name));
  }
  const packed = packPublished(destination);
  console.log(`Packed ${packed.length} packages into ${destination}:`);
  for (const { name, file } of packed) console.log(`  ${name.padEnd(26)} ${file}`);
  const { quickStart: first, rest } = installCommands(packed);
  const lines = (commands) => commands.map((args) => `  npm ${args.join(' ')}`).join('\n');
  console.log(`
To try them in a project of your own, install what getting started needs (the client and
@dataworkz/a2a, with the packages they depend on, and the emulator for development), in this order:

${lines(first)}

Then, when you want them, the MCP server, the LangChain and AI SDK integrations, and the CLI:

${lines(rest)}

npm takes each @dataworkz package from these files, never from the registry. Start the emulator with
\`npx @dataworkz/emulator\` and point the client at it through DATAWORKZ_BASE_URL and
DATAWORKZ_API_KEY (it prints both).`);
}
