import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { runToExit } from '@dataworkz/measure';
import type { Goal, Measurement, SectionResult } from '../measurement.js';

const section = '11. emulator start-up';
const require = createRequire(import.meta.url);
/** Children run here, so `@dataworkz/emulator` resolves as it does for a user of the built package. */
const cwd = dirname(require.resolve('@dataworkz/emulator/package.json'));

/**
 * What a fresh process reports of itself as it exits (work left running in the background counts): its
 * CPU, its peak RSS, and the time it measured. The peak is Linux's VmHWM, the high-water mark of the
 * process's own memory: `resourceUsage().maxRSS` keeps the peak of the process that spawned it (Linux
 * carries it across exec), so every small process reported the bench's own ~55 MiB.
 */
const report = `const measured = typeof ms === 'number' ? ms : 0; process.on('exit', () => { const u = process.resourceUsage(); let kib = u.maxRSS; try { kib = Number(/VmHWM:\\s+(\\d+) kB/.exec(process.getBuiltinModule('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]); } catch {} process.stdout.write(JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rss: kib / 1024, ms: measured })); });`;
/** The first call of each case: list the QnA systems. */
const list = `'/api/qna/v1/systems', { headers: { authorization: 'SSWS start-key' } }`;

interface Case {
  readonly subject: string;
  /** An ES module body; it may set `ms`, the time it measured inside the process. */
  readonly code: string;
}

const bare: Case = { subject: 'node -e 0', code: '' };
/**
 * What the list costs without the emulator: a node:http server answering `{}` and one `fetch` to it in
 * the same process. On Node 20 the first `fetch` (undici and its WebAssembly HTTP parser) is most of it.
 */
const bareHttp: Case = {
  subject: 'node:http server + one fetch, no emulator',
  code: `const { createServer } = await import('node:http');
const s = createServer((q, r) => r.end('{}')).listen(0, '127.0.0.1');
await new Promise((resolve) => s.once('listening', resolve));
const r = await fetch('http://127.0.0.1:' + s.address().port + '/');
await r.arrayBuffer();
await new Promise((resolve) => s.close(resolve));`,
};
/**
 * The same with node:http's own client: the first `fetch` loads undici, which costs more CPU than the
 * 3× goal leaves, so this pair shows what the emulator costs apart from it.
 */
const getOf = (url: string) =>
  `await new Promise((resolve, reject) => get(${url}, { headers: { authorization: 'SSWS start-key' } }, (res) => { if (res.statusCode !== 200) reject(new Error('list: HTTP ' + res.statusCode)); res.resume().on('end', resolve); }).on('error', reject));`;
const bareHttpGet: Case = {
  subject: 'node:http server + one node:http request, no emulator',
  code: `const { createServer, get } = await import('node:http');
const s = createServer((q, r) => r.end('{}')).listen(0, '127.0.0.1');
await new Promise((resolve) => s.once('listening', resolve));
${getOf("'http://127.0.0.1:' + s.address().port + '/'")}
await new Promise((resolve) => s.close(resolve));`,
};
const imported: Case = {
  subject: "import('@dataworkz/emulator')",
  code: "await import('@dataworkz/emulator');",
};
const started: Case = {
  subject: 'startEmulator() → list QnA systems → close()',
  code: `const { startEmulator } = await import('@dataworkz/emulator');
const e = await startEmulator({ apiKeys: ['start-key'] });
const r = await fetch(e.url + ${list});
if (!r.ok) throw new Error('list: HTTP ' + r.status);
await r.arrayBuffer();
await e.close();`,
};
const startedHttpGet: Case = {
  subject: 'startEmulator() → list over node:http → close()',
  code: `const { get } = await import('node:http');
const { startEmulator } = await import('@dataworkz/emulator');
const e = await startEmulator({ apiKeys: ['start-key'] });
${getOf("e.url + '/api/qna/v1/systems'")}
await e.close();`,
};
const inProcess: Case = {
  subject: 'createEmulator() + one call',
  code: `const { createEmulator } = await import('@dataworkz/emulator');
const e = createEmulator({ apiKeys: ['start-key'] });
const r = await e.fetch('https://dw.example' + ${list});
if (!r.ok) throw new Error('list: HTTP ' + r.status);
await r.arrayBuffer();
await e.close();`,
};
const firstSearch: Case = {
  subject: 'startEmulator() → first semantic search',
  code: `const t = performance.now();
const { startEmulator } = await import('@dataworkz/emulator');
const e = await startEmulator({ apiKeys: ['start-key'] });
const auth = { headers: { authorization: 'SSWS start-key' } };
const systems = await (await fetch(e.url + '/api/qna/v1/systems', auth)).json();
const first = Object.keys(systems)[0];
const r = await fetch(e.url + '/api/qna/v1/systems/' + first + '/search?query=' + encodeURIComponent('how do I get my money back'), auth);
if (!r.ok) throw new Error('search: HTTP ' + r.status);
await r.arrayBuffer();
var ms = performance.now() - t;
await e.close();`,
};

interface Usage {
  readonly cpu: number;
  readonly rss: number;
  readonly ms: number;
  readonly wall: number;
}

/** Runs `code` as a module in a fresh Node process; wall time is from spawn to exit. */
async function runFresh(execPath: string, code: string): Promise<Usage> {
  const begun = performance.now();
  const exit = await runToExit(execPath, ['--input-type=module', '-e', `${code}\n${report}`], { cwd });
  const wall = performance.now() - begun;
  if (exit.code !== 0)
    throw new Error(`a fresh process exited with ${exit.code}: ${exit.stderr.slice(0, 400)}`);
  try {
    return { ...(JSON.parse(exit.stdout) as Omit<Usage, 'wall'>), wall };
  } catch {
    throw new Error(`a fresh process printed ${JSON.stringify(exit.stdout.slice(0, 200))}`);
  }
}

/**
 * Start-up of the emulator in fresh processes, each round running every case once in turn (so a busy
 * moment of the machine falls on all of them): bare `node -e 0`, a node:http server with one `fetch`
 * (what the list costs without the emulator) and the same with node:http's client, importing the
 * package, `startEmulator()` with one list (by `fetch`, and by node:http) and `close()`,
 * `createEmulator()` with one call, and a first semantic search. CPU (user + system), wall time and
 * peak RSS of each process.
 */
export async function measureEmulatorStart(execPath: string, runs: number): Promise<SectionResult> {
  const cases = [bare, bareHttp, bareHttpGet, imported, started, startedHttpGet, inProcess, firstSearch];
  const samples = new Map(cases.map((c) => [c, [] as Usage[]]));
  // One unrecorded round, so the file system cache is warm for every case.
  for (const c of cases) await runFresh(execPath, c.code);
  for (let i = 0; i < runs; i++) {
    for (const c of cases) samples.get(c)?.push(await runFresh(execPath, c.code));
  }
  const of = (c: Case) => samples.get(c) ?? [];
  const row = (
    metric: string,
    c: Case,
    unit: string,
    pick: (u: Usage) => number,
    baseline?: Case,
    goals?: readonly Goal[],
  ): Measurement => ({
    section,
    metric,
    subject: c.subject,
    unit,
    samples: of(c).map(pick),
    ...(baseline ? { baseline: baseline.subject } : {}),
    ...(goals ? { goals } : {}),
  });
  const cpu = (u: Usage) => u.cpu;
  const wall = (u: Usage) => u.wall / 1000;
  const rss = (u: Usage) => u.rss;
  return {
    measurements: [
      row('fresh process: CPU (user + system)', started, 's', cpu, bare, [{ kind: 'ratio-max', value: 3 }]),
      row('fresh process: CPU (user + system)', started, 's', cpu, bareHttp),
      row('fresh process: CPU (user + system)', bareHttp, 's', cpu, bare),
      row('fresh process: CPU (user + system)', startedHttpGet, 's', cpu, bare),
      row('fresh process: CPU (user + system)', startedHttpGet, 's', cpu, bareHttpGet),
      row('fresh process: CPU (user + system)', bareHttpGet, 's', cpu, bare),
      row('fresh process: CPU (user + system)', imported, 's', cpu, bare),
      row('fresh process: CPU (user + system)', bare, 's', cpu),
      row('fresh process: wall', started, 's', wall, bare),
      row('fresh process: wall', imported, 's', wall, bare),
      row('fresh process: wall', bare, 's', wall),
      row('fresh process: peak RSS', started, 'MiB', rss, bare, [{ kind: 'max', value: 90 }]),
      row('fresh process: peak RSS', started, 'MiB', rss, bareHttp),
      row('fresh process: peak RSS', bareHttp, 'MiB', rss, bare),
      row('fresh process: peak RSS', startedHttpGet, 'MiB', rss, bare),
      row('fresh process: peak RSS', bareHttpGet, 'MiB', rss, bare),
      row('fresh process: peak RSS', imported, 'MiB', rss, bare),
      row('fresh process: peak RSS', bare, 'MiB', rss),
      row('in process: CPU (user + system)', inProcess, 's', cpu, imported, [
        { kind: 'delta-max', value: 0.1 },
      ]),
      row('in process: CPU (user + system)', imported, 's', cpu),
      row('in process: peak RSS', inProcess, 'MiB', rss, imported),
      row('in process: peak RSS', imported, 'MiB', rss),
      row('first semantic search: from import to answer', firstSearch, 's', (u) => u.ms / 1000, undefined, [
        { kind: 'max', value: 0.8 },
      ]),
      row('first semantic search: fresh process wall', firstSearch, 's', wall, bare),
      row('first semantic search: fresh process wall', bare, 's', wall),
      row('first semantic search: peak RSS', firstSearch, 'MiB', rss),
    ],
    notes: [],
  };
}
