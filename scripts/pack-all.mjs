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

/**
 * The two `npm install` commands that put packed tarballs into a project: the libraries as dependencies,
 * the emulator and the CLI as devDependencies. Every tarball a package depends on is in the same command
 * (the CLI depends on the emulator; @dataworkz/a2a on the client and context-values of its version), so
 * npm never looks for an unpublished @dataworkz version in the registry. Getting started prints these,
 * and CI installs its scratch project with exactly them.
 * @param {{ name: string, file: string }[]} packed
 * @returns {string[][]} each command's arguments after `npm`
 */
export function installCommands(packed) {
  const tools = new Set(['@dataworkz/emulator', '@dataworkz/cli']);
  return [
    ['install', ...packed.filter((p) => !tools.has(p.name)).map((p) => p.file)],
    ['install', '--save-dev', ...packed.filter((p) => tools.has(p.name)).map((p) => p.file)],
  ];
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
  console.log(`
To try them in a project of your own, install them with these two commands (each holds every tarball
its packages depend on: @dataworkz/a2a needs the client and context-values of the same version, the CLI
needs the emulator, and npm takes them from these files, not from the registry):

${installCommands(packed)
  .map((args) => `  npm ${args.join(' ')}`)
  .join('\n')}

Then start the emulator with \`npx dataworkz-emulator\` and point the client at it through
DATAWORKZ_BASE_URL and DATAWORKZ_API_KEY (it prints both).`);
}
