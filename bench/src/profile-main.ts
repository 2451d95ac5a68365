/**
 * `pnpm bench:profile [--section concurrency|unary] [--subject client|openapi-fetch|openapi-fetch-timeout|fetch]
 * [--calls N] [--node machine|24] [--dir path] [--top N]`: a CPU profile of one subject's calls
 * against the emulator, as the call sections make them, and where its CPU went by package.
 */
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { askChild, stopChild } from '@dataworkz/measure';
import { withServer } from './orchestrate.js';
import { distModule } from './paths.js';
import { fullPlan } from './plan.js';
import { type CpuProfile, renderProfileSummary, summarizeProfile } from './profile/cpu-profile.js';
import { resolveRuntimes } from './runtimes.js';
import type { SectionRequest } from './section-main.js';
import type { ProfiledSubject } from './sections/profile-calls.js';

const subjects: readonly ProfiledSubject[] = ['client', 'openapi-fetch', 'openapi-fetch-timeout', 'fetch'];
const usage = `Usage: pnpm bench:profile [--section concurrency|unary] [--subject ${subjects.join('|')}]
                          [--calls N] [--node machine|22|24] [--dir path] [--top N]

  --section  the call section whose calls are made: concurrency (default) or unary (one at a time)
  --subject  whose calls are profiled (default client)
  --calls    how many calls (default 20000)
  --node     the runtime: machine (this Node, default), 22 or 24
  --dir      where the .cpuprofile is written (default a new temporary folder)
  --top      how many rows of the summary by package and function (default 25)
`;

const values = (() => {
  try {
    const { values: parsed } = parseArgs({
      options: {
        section: { type: 'string', default: 'concurrency' },
        subject: { type: 'string', default: 'client' },
        calls: { type: 'string', default: '20000' },
        node: { type: 'string', default: 'machine' },
        dir: { type: 'string' },
        top: { type: 'string', default: '25' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (parsed.help) {
      process.stdout.write(usage);
      process.exit(0);
    }
    if (!(subjects as readonly string[]).includes(parsed.subject)) {
      throw new Error(`unknown subject ${parsed.subject}; choose from ${subjects.join(', ')}`);
    }
    if (parsed.section !== 'concurrency' && parsed.section !== 'unary') {
      throw new Error(`unknown section ${parsed.section}; choose concurrency or unary`);
    }
    return { ...parsed, calls: positive('calls', parsed.calls), top: positive('top', parsed.top) };
  } catch (error) {
    process.stderr.write(
      `bench:profile: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`,
    );
    process.exit(2);
  }
})();

const { calls, top } = values;
const { runtimes, notes } = resolveRuntimes([values.node]);
const runtime = runtimes[0];
if (runtime === undefined) throw new Error(`no runtime to profile on: ${notes.join('; ')}`);
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'dataworkz-cpu-profile-'));
mkdirSync(dir, { recursive: true });

process.stderr.write(
  `profile: ${calls} ${values.subject} calls (${values.section}) on Node ${runtime.version}…\n`,
);
const result = await withServer(runtime, 'emulator', async (server) => {
  const request: SectionRequest = {
    section: 'profile-calls',
    target: { url: server.url, apiKey: server.apiKey },
    subject: values.subject as ProfiledSubject,
    calls,
    inFlight: values.section === 'unary' ? 1 : fullPlan.inFlight,
  };
  const { value, child } = await askChild(distModule('section-main.js'), request, {
    timeoutMs: fullPlan.sectionTimeoutMs,
    execArgv: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    execPath: runtime.execPath,
  });
  // The profile is written when the process exits by itself: on disconnect it calls process.exit.
  const exited = once(child, 'exit');
  child.disconnect();
  await Promise.race([exited, stopAfter(child, 10_000)]);
  return value as { subject: string; callsPerSecond: number };
});

const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
if (files.length === 0) throw new Error(`no .cpuprofile was written to ${dir}`);
const newest = files.sort().at(-1) as string;
const profile = JSON.parse(readFileSync(join(dir, newest), 'utf8')) as CpuProfile;
process.stdout.write(
  `${result.subject}, ${values.section === 'unary' ? 'sequential' : `${fullPlan.inFlight} in flight`}, ` +
    `${calls} calls at ${result.callsPerSecond.toFixed(0)} calls/s on Node ${runtime.version}\n` +
    `Profile: ${join(dir, newest)} (open it in Chrome DevTools or speedscope for the flame graph)\n\n` +
    renderProfileSummary(summarizeProfile(profile), top),
);

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`--${name} takes a positive whole number, not ${text}`);
  return value;
}

async function stopAfter(child: Parameters<typeof stopChild>[0], ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms).unref());
  await stopChild(child);
}
