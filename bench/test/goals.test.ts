import { describe, expect, it } from 'vitest';
import type { Measurement } from '../src/measurement.js';
import { renderGoalComparison, renderReport } from '../src/table.js';

function cellsOf(line: string | undefined): string[] {
  return (line ?? '')
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((cell) => cell.trim());
}

const ratioRow = (samples: number[]): Measurement => ({
  section: '1. unary overhead',
  metric: 'time per call, ratio per round',
  subject: 'client ÷ raw fetch',
  unit: '×',
  samples,
  goals: [{ kind: 'max', value: 1.03 }],
});

/** `n` per-round ratios spread evenly from `low` to `high`. */
function evenly(n: number, low: number, high: number): number[] {
  return Array.from({ length: n }, (_, i) => low + ((high - low) * i) / (n - 1));
}

describe('rows of per-round ratios', () => {
  it('show the median to three decimals, the interquartile range and a plain verdict when resolved', () => {
    const text = renderReport({ machine: 'm', measurements: [ratioRow(evenly(30, 1.0, 1.02))] });
    expect(cellsOf(text.split('\n')[4]).slice(3)).toEqual([
      '1.010×',
      '1.000',
      '1.020',
      '1.005–1.015',
      '',
      '≤ 1.03×: met',
    ]);
  });

  it('say the goal is not resolved when the median’s confidence interval reaches across it', () => {
    const text = renderReport({ machine: 'm', measurements: [ratioRow(evenly(30, 0.9, 1.2))] });
    expect(cellsOf(text.split('\n')[4]).at(-1)).toBe('≤ 1.03×: missed, not resolved');
  });

  it('leave out the spread with fewer than eight rounds', () => {
    const text = renderReport({ machine: 'm', measurements: [ratioRow([1.0, 1.01, 1.02])] });
    expect(cellsOf(text.split('\n')[4]).slice(6)).toEqual(['', '', '≤ 1.03×: met']);
  });
});

describe('renderGoalComparison', () => {
  it('gives each runtime’s median, spread, confidence interval and verdict', () => {
    const text = renderGoalComparison([
      { label: 'Node 20', measurements: [ratioRow(evenly(30, 1.0, 1.02))] },
      { label: 'Node 24', measurements: [] },
    ]);
    const [, , row] = text.split('\n');
    expect(cellsOf(row)).toEqual([
      '1. unary overhead',
      'time per call, ratio per round',
      'client ÷ raw fetch',
      '≤ 1.03×',
      '1.010×, IQR 1.005–1.015, 95 % CI 1.006–1.014, met',
      'not measured',
    ]);
  });

  it('names the goal in each cell when runtimes have different goals', () => {
    const growth = (goals: Measurement['goals'], samples: number[]): Measurement[] => [
      { section: '4. memory', metric: 'growth', subject: 'raw fetch', unit: 'MiB', samples: [100] },
      {
        section: '4. memory',
        metric: 'growth',
        subject: 'client',
        unit: 'MiB',
        samples,
        baseline: 'raw fetch',
        ...(goals ? { goals } : {}),
      },
    ];
    const text = renderGoalComparison([
      { label: 'Node 20', measurements: growth([{ kind: 'max', value: 20 }], [9]) },
      { label: 'Node 24', measurements: growth([{ kind: 'ratio-max', value: 1.1 }], [103]) },
    ]);
    expect(cellsOf(text.split('\n')[2]).slice(3)).toEqual([
      'by runtime',
      '9.00 MiB, ≤ 20.0 MiB: met',
      '103 MiB, 1.03×, ratio ≤ 1.1: met',
    ]);
  });
});
