// The snippet check fails, naming the page and line, when a guide drifts from the code: a block that
// no longer compiles, and a block that compiles but fails against the emulator.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/snippets.mjs', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}/`, import.meta.url));

async function check(site: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, 'check'], {
      env: { ...process.env, SNIPPETS_SITE: site },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

afterAll(async () => {
  for (const name of ['broken-types', 'broken-run']) {
    await rm(`${fixture(name)}.snippets`, { recursive: true, force: true });
  }
});

describe('the snippet check', () => {
  it('fails on a block that no longer compiles, at its page and line', async () => {
    const { code, output } = await check(fixture('broken-types'));
    expect(code).toBe(1);
    expect(output).toMatch(
      /page\.md:7:\d+ \(page-0\): error TS2339: Property 'searchEverything' does not exist/,
    );
  });

  it('fails on a block that fails against the emulator, and runs no `no-run` block', async () => {
    const { code, output } = await check(fixture('broken-run'));
    expect(code).toBe(1);
    expect(output).toContain('page.md:4 (page-0) failed against the emulator');
    expect(output).toMatch(/NotFoundError|404/);
    expect(output).not.toContain('(page-1) failed');
    expect(output).toContain('2 blocks from 1 pages compiled; 0 of 1 ran');
  });
});
