import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type CpuProfile,
  groupOf,
  renderProfileSummary,
  summarizeProfile,
} from '../src/profile/cpu-profile.js';

describe('groupOf', () => {
  it('tells the packages of a call apart by script URL', () => {
    expect(groupOf('node:internal/deps/undici/undici', 'fetch')).toBe('undici');
    expect(groupOf('node:internal/abort_controller', 'createAbortSignal')).toBe('node internals');
    expect(groupOf('wasm://wasm/0002f80e', 'wasm-function[20]')).toBe('undici (llhttp, WebAssembly)');
    expect(
      groupOf(
        'file:///r/node_modules/.pnpm/openapi-fetch@0.17.0/node_modules/openapi-fetch/dist/index.mjs',
        'GET',
      ),
    ).toBe('openapi-fetch');
    expect(groupOf('file:///r/packages/client/dist/core/transport.js', 'execute')).toBe('@dataworkz/client');
    expect(groupOf('file:///app/node_modules/@dataworkz/client/dist/client.js', 'x')).toBe(
      '@dataworkz/client',
    );
    expect(groupOf('file:///r/bench/dist/sections/callers.js', 'worker')).toBe('bench harness');
    expect(groupOf('', '(garbage collector)')).toBe('garbage collector');
    expect(groupOf('', 'JSON.parse')).toBe('native (V8 built-ins, Node bindings)');
  });
});

describe('summarizeProfile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cpu-profile-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the function a real `node --cpu-prof` run spent its time in', () => {
    const script = join(dir, 'spin.mjs');
    writeFileSync(
      script,
      [
        'function spinForAWhile() {',
        '  let x = 0;',
        '  for (let i = 0; i < 100_000_000; i++) x = (x + i * 7) % 1_000_003;',
        '  return x;',
        '}',
        'spinForAWhile();',
      ].join('\n'),
    );
    execFileSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, script]);
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    expect(file).toBeDefined();
    const profile = JSON.parse(readFileSync(join(dir, file as string), 'utf8')) as CpuProfile;
    const summary = summarizeProfile(profile);

    const hottest = summary.functions.find((f) => f.group !== 'native (V8 built-ins, Node bindings)');
    expect(hottest).toMatchObject({ name: 'spinForAWhile', where: `${script}:1`, group: 'other' });
    expect(hottest?.selfMs).toBeGreaterThan(summary.totalMs / 2);
    const grouped = summary.groups.reduce((sum, g) => sum + g.selfMs, 0);
    expect(grouped).toBeCloseTo(summary.totalMs, 0);
    expect(renderProfileSummary(summary, 3)).toContain('| spinForAWhile |');
  });
});
