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
  const byName = new Map(packed.map((p) => [p.name, p.file]));
  const runtime = packed.filter((p) => p.name !== '@dataworkz/emulator').map((p) => p.file);
  const emulator = byName.get('@dataworkz/emulator');
  console.log(`Packed ${packed.length} packages into ${destination}:`);
  for (const { name, file } of packed) console.log(`  ${name.padEnd(26)} ${file}`);
  console.log(`
To try them in a project of your own, install them together (@dataworkz/a2a needs the client and
context-values of the same version, which npm then takes from these files, not from the registry):

  npm install ${runtime.join(' ')}
  npm install --save-dev ${emulator}

Then start the emulator with \`npx dataworkz-emulator\` and point the client at it through
DATAWORKZ_BASE_URL and DATAWORKZ_API_KEY (it prints both).`);
}
