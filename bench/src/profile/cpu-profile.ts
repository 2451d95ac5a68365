/** Reading a V8 `.cpuprofile` (what `node --cpu-prof` writes): self time per function and per package. */

/** The parts of the `.cpuprofile` JSON this reads (the Chrome DevTools protocol's Profiler.Profile). */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      /** 0-based. */
      readonly lineNumber: number;
    };
  }[];
  /** The node sampled at each tick, and the µs since the previous tick. */
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

interface FunctionTime {
  readonly group: string;
  readonly name: string;
  /** `file:line`, shortened to the part after node_modules/ or the repository. */
  readonly where: string;
  readonly selfMs: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  /** Self time per group, largest first. */
  readonly groups: readonly { readonly group: string; readonly selfMs: number }[];
  /** Self time per function, largest first. */
  readonly functions: readonly FunctionTime[];
}

/**
 * Where a function's code lives, from its script URL: the packages that share a call's CPU, with
 * Node's bundled undici apart from the rest of Node's internals, and V8's own entries (collector,
 * idle, program) by name.
 */
export function groupOf(url: string, functionName: string): string {
  if (url === '') {
    if (functionName === '(garbage collector)') return 'garbage collector';
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(program)') return 'V8 and native code';
    return 'native (V8 built-ins, Node bindings)';
  }
  if (url.includes('internal/deps/undici/')) return 'undici';
  // The only WebAssembly a call loads is undici's HTTP parser (llhttp), on the runtimes that ship it so.
  if (url.startsWith('wasm://')) return 'undici (llhttp, WebAssembly)';
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes('/node_modules/openapi-fetch/')) return 'openapi-fetch';
  if (url.includes('/packages/client/') || url.includes('/node_modules/@dataworkz/client/')) {
    return '@dataworkz/client';
  }
  if (url.includes('/bench/')) return 'bench harness';
  return 'other';
}

/** Self time per function (merged over call sites) and per group, from the samples. */
export function summarizeProfile(profile: CpuProfile): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfUs = new Map<number, number>();
  let totalUs = 0;
  // timeDeltas[i] is the time before sample i; the time a sample stands for is the next delta,
  // but over thousands of ticks the two readings agree, and this one needs no special last tick.
  profile.samples.forEach((id, i) => {
    const delta = Math.max(0, profile.timeDeltas[i] ?? 0);
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
    totalUs += delta;
  });
  const functions = new Map<string, { group: string; name: string; where: string; us: number }>();
  const groups = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id);
    if (!frame || frame.functionName === '(root)') continue;
    const group = groupOf(frame.url, frame.functionName);
    const where = frame.url === '' ? '' : `${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    const name = frame.functionName || '(anonymous)';
    const key = `${name}\u0000${where}`;
    const seen = functions.get(key);
    if (seen) seen.us += us;
    else functions.set(key, { group, name, where, us });
    groups.set(group, (groups.get(group) ?? 0) + us);
  }
  return {
    totalMs: totalUs / 1000,
    groups: [...groups]
      .map(([group, us]) => ({ group, selfMs: us / 1000 }))
      .sort((a, b) => b.selfMs - a.selfMs),
    functions: [...functions.values()]
      .map(({ group, name, where, us }) => ({ group, name, where, selfMs: us / 1000 }))
      .sort((a, b) => b.selfMs - a.selfMs),
  };
}

/** The summary as two Markdown tables: self time per group, then the `top` functions. */
export function renderProfileSummary(summary: ProfileSummary, top: number): string {
  const pct = (ms: number) => `${((100 * ms) / summary.totalMs).toFixed(1)} %`;
  const lines = [
    `Sampled ${summary.totalMs.toFixed(0)} ms.`,
    '',
    '| group | self time | share |',
    '| --- | --: | --: |',
    ...summary.groups.map((g) => `| ${g.group} | ${g.selfMs.toFixed(1)} ms | ${pct(g.selfMs)} |`),
    '',
    '| function | where | group | self time | share |',
    '| --- | --- | --- | --: | --: |',
    ...summary.functions
      .slice(0, top)
      .map((f) => `| ${f.name} | ${f.where} | ${f.group} | ${f.selfMs.toFixed(1)} ms | ${pct(f.selfMs)} |`),
  ];
  return `${lines.join('\n')}\n`;
}

/** `file:///…/node_modules/.pnpm/x/node_modules/openapi-fetch/dist/index.mjs` → `openapi-fetch/dist/index.mjs`. */
function shortUrl(url: string): string {
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length);
  for (const root of ['/packages/', '/bench/']) {
    const at = url.lastIndexOf(root);
    if (at >= 0) return url.slice(at + 1);
  }
  return url.replace(/^file:\/\//, '');
}
