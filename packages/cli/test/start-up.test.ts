import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, freshConfigDir } from './support/run-cli.js';

// Notes every module the process loads, one URL a line, in the file DATAWORKZ_TEST_MODULE_LOG names.
const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.DATAWORKZ_TEST_MODULE_LOG, url + '\\n');
  return next(url, context);
}`;
const register = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;

/** The modules a run of the bin with these arguments loaded, and its exit code. */
function modulesLoaded(args: string[]): Promise<{ code: number | null; modules: string[] }> {
  const log = join(freshConfigDir(), 'modules.txt');
  const child = spawn(
    process.execPath,
    [`--import=data:text/javascript,${encodeURIComponent(register)}`, bin, ...args],
    {
      env: { PATH: process.env.PATH ?? '', DATAWORKZ_TEST_MODULE_LOG: log },
      stdio: ['ignore', 'ignore', 'ignore'],
    },
  );
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, modules: readFileSync(log, 'utf8').split('\n').filter(Boolean) }),
    );
  });
}

describe('start-up', () => {
  it('--help, --version and a usage error load the parser alone: no command, client or OpenTelemetry', async () => {
    for (const [args, exitCode] of [
      [['--help'], 0],
      [['--version'], 0],
      [['qna', 'list', '--no-such-flag'], 2],
    ] as const) {
      const { code, modules } = await modulesLoaded([...args]);
      expect(code, args.join(' ')).toBe(exitCode);
      expect(modules.some((url) => url.includes('commander'))).toBe(true);
      const needless = modules.filter((url) =>
        /@opentelemetry|\/client\/dist\/(?:index|client)\.js|\/cli\/dist\/(?:commands|batch|eval|telemetry)\/|\/cli\/dist\/(?:context|failure)\.js/.test(
          url,
        ),
      );
      expect(needless, args.join(' ')).toEqual([]);
    }
  });
});
