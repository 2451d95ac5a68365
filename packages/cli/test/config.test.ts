import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Emulator, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from './support/run-cli.js';
import { runInProcess } from './support/run-in-process.js';

// A key is read from standard input by a process of its own; the other commands run in this one.
describe('dataworkz config: profiles', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  afterAll(() => emu.close());

  it('keeps a profile the commands use, with the key from standard input, owner-only and masked', async () => {
    const dir = freshConfigDir();
    const env = { DATAWORKZ_CONFIG_DIR: dir };
    expect((await runInProcess(['config', 'set', 'base-url', emu.url], env)).code).toBe(0);
    const refused = await runInProcess(['config', 'set', 'api-key', emu.apiKey], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('never taken as an argument');
    expect(refused.stderr).not.toContain(emu.apiKey);
    const set = await runCli(['config', 'set', 'api-key'], env, `${emu.apiKey}\n`);
    expect(set.code, set.stderr).toBe(0);
    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({
      baseUrl: emu.url,
      apiKey: emu.apiKey,
    });

    const shown = await runInProcess(['config', 'get', 'api-key'], env);
    expect(shown.stdout.trim()).toBe(`****${emu.apiKey.slice(-4)}`);
    expect((await runInProcess(['config', 'get', 'base-url'], env)).stdout.trim()).toBe(emu.url);
    const listed = await runInProcess(['config', 'list'], env);
    expect(listed.stdout).toContain(`* default\t${emu.url}\tapi key ****${emu.apiKey.slice(-4)}`);
    expect(listed.stdout).not.toContain(emu.apiKey);

    // With no environment at all, the profile is the address and the credential.
    const systems = await runInProcess(['qna', 'systems'], env);
    expect(systems.code, systems.stderr).toBe(0);
    expect(systems.stdout.trim().split('\n').length).toBeGreaterThan(0);
  });

  it('switches profiles with `use` and --profile; the environment wins over a profile', async () => {
    const dir = freshConfigDir();
    const env = { DATAWORKZ_CONFIG_DIR: dir };
    await runInProcess(['config', 'set', 'base-url', emu.url, '--profile', 'local'], env);
    await runCli(['config', 'set', 'api-key', '--profile', 'local'], env, emu.apiKey);
    await runInProcess(['config', 'set', 'base-url', 'http://127.0.0.1:9', '--profile', 'broken'], env);
    await runCli(['config', 'set', 'api-key', '--profile', 'broken'], env, 'not-a-key');
    expect((await runInProcess(['config', 'use', 'local'], env)).code).toBe(0);
    expect((await runInProcess(['qna', 'systems'], env)).code).toBe(0);
    expect((await runInProcess(['--profile', 'broken', 'qna', 'systems'], env)).code).toBe(6);
    const overridden = await runInProcess(['--profile', 'broken', 'qna', 'systems'], {
      ...env,
      DATAWORKZ_BASE_URL: emu.url,
      DATAWORKZ_API_KEY: emu.apiKey,
    });
    expect(overridden.code, overridden.stderr).toBe(0);
    const missing = await runInProcess(['config', 'use', 'nowhere'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No profile "nowhere"');
  });

  it('refuses a config file that is not JSON, naming it', async () => {
    const dir = freshConfigDir();
    writeFileSync(join(dir, 'config.json'), '{ not json');
    const result = await runInProcess(['config', 'list'], { DATAWORKZ_CONFIG_DIR: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(dir, 'config.json'));
  });
});

/** Whether a shell is installed: zsh and fish are not on every machine, bash is. */
const installed = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

describe('dataworkz completion', () => {
  it('prints a bash script that bash accepts and that completes commands and flags', async () => {
    const script = await runInProcess(['completion', 'bash'], {});
    expect(script.code).toBe(0);
    execFileSync('bash', ['-n'], { input: script.stdout });
    const complete = (line: string) =>
      execFileSync(
        'bash',
        [
          '-c',
          `${script.stdout}\nCOMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _dataworkz_completion; echo "\${COMPREPLY[*]}"`,
        ],
        { encoding: 'utf8' },
      ).trim();
    expect(complete("dataworkz ''").split(' ').sort()).toEqual([
      'agents',
      'completion',
      'config',
      'emulator',
      'qna',
    ]);
    expect(complete('dataworkz qna s')).toBe('systems search');
    expect(complete('dataworkz qna l')).toBe('list llms');
    expect(complete('dataworkz agents ask --c').split(' ').sort()).toEqual([
      '--concurrency',
      '--context',
      '--continue',
    ]);
    // The emulator's flags are its own command line's.
    expect(complete('dataworkz emulator --jwt')).toBe('--jwt-secret');
    expect(complete('dataworkz emulator --max-text')).toBe('--max-text-length');
  });

  it('prints zsh and fish scripts, refused for another shell', async () => {
    expect((await runInProcess(['completion', 'zsh'], {})).stdout).toMatch(/^#compdef dataworkz/);
    const fish = await runInProcess(['completion', 'fish'], {});
    expect(fish.stdout).toContain("complete -c dataworkz -n '__fish_use_subcommand' -a qna");
    expect(fish.stdout).toContain('-l where');
    expect((await runInProcess(['completion', 'tcsh'], {})).code).toBe(2);
  });

  it.skipIf(!installed('zsh'))('zsh parses and loads its script (where zsh is installed)', async () => {
    const script = (await runInProcess(['completion', 'zsh'], {})).stdout;
    execFileSync('zsh', ['-n'], { input: script });
    const loaded = execFileSync(
      'zsh',
      ['-c', `autoload -U compinit && compinit -u\n${script}\necho loaded`],
      {
        encoding: 'utf8',
      },
    );
    expect(loaded.trim()).toBe('loaded');
  });

  it.skipIf(!installed('fish'))(
    'fish completes commands and flags from its script (where fish is installed)',
    async () => {
      const script = (await runInProcess(['completion', 'fish'], {})).stdout;
      const complete = (line: string) =>
        execFileSync('fish', ['-c', `${script}\ncomplete -C '${line}'`], { encoding: 'utf8' })
          .trim()
          .split('\n');
      expect(complete('dataworkz qna s')).toEqual(['search', 'systems']);
      expect(complete('dataworkz qna search x y --w')).toEqual(['--where']);
    },
  );
});
