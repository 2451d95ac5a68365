import { describe, expect, it } from 'vitest';
import { formatNumber } from '../src/format.js';
import type { Measurement } from '../src/measurement.js';
import { renderReport } from '../src/table.js';

/** A table line's cells, trimmed (`\|` inside a cell is not a separator). */
function cellsOf(line: string | undefined): string[] {
  return (line ?? '')
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((cell) => cell.trim());
}

describe('formatNumber', () => {
  it('groups large numbers and keeps three significant figures for small ones', () => {
    expect(formatNumber(281342.4)).toBe('281,342');
    expect(formatNumber(123.4)).toBe('123');
    expect(formatNumber(12.34)).toBe('12.3');
    expect(formatNumber(1.234)).toBe('1.23');
    expect(formatNumber(0.01234)).toBe('0.012');
    expect(formatNumber(0)).toBe('0');
  });
});

describe('renderReport', () => {
  const section = '1. unary overhead';
  const metric = 'time per call';
  const rows: Measurement[] = [
    { section, metric, subject: 'raw fetch', unit: 'µs', samples: [100, 110, 90] },
    {
      section,
      metric,
      subject: 'client',
      unit: 'µs',
      samples: [104, 120, 101],
      baseline: 'raw fetch',
      goals: [{ kind: 'ratio-max', value: 1.05 }],
    },
    {
      section: '3. streaming',
      metric: 'time to first event',
      subject: 'parser',
      unit: 'ms',
      samples: [3],
    },
    {
      section: '3. streaming',
      metric: 'time to first event',
      subject: 'wrapper',
      unit: 'ms',
      samples: [4.5],
      baseline: 'parser',
      goals: [{ kind: 'delta-max', value: 1 }],
    },
  ];

  it('puts the machine line first and one row per measurement with ratio and verdict', () => {
    const text = renderReport({ machine: 'Machine: test', measurements: rows, notes: ['a note'] });
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('Machine: test');
    expect(cellsOf(lines[2])).toEqual([
      'section',
      'metric',
      'subject',
      'median',
      'min',
      'max',
      'IQR',
      'ratio to baseline',
      'goal',
    ]);
    expect(cellsOf(lines[4])).toEqual([
      '1. unary overhead',
      'time per call',
      'raw fetch',
      '100 µs',
      '90.0',
      '110',
      '',
      'baseline',
      '',
    ]);
    expect(cellsOf(lines[5])).toEqual([
      '1. unary overhead',
      'time per call',
      'client',
      '104 µs',
      '101',
      '120',
      '',
      '1.04×',
      'ratio ≤ 1.05: met',
    ]);
    expect(cellsOf(lines[7]).slice(7)).toEqual(['1.50×', 'within 1.00 ms (+1.50 ms): missed']);
    expect(lines.at(-1)).toBe('a note');
  });

  it('pads every column to one width, as a Markdown formatter would', () => {
    const lines = renderReport({ machine: 'm', measurements: rows }).trimEnd().split('\n').slice(2);
    expect(new Set(lines.map((line) => [...line].length)).size).toBe(1);
    expect(lines[1]).toMatch(/^\| -+ \| -+ \| -+ \| -+ \| -+ \| -+ \| -+ \| -+ \| -+ \|$/);
  });

  it('says so when a baseline row is missing instead of inventing a ratio', () => {
    const text = renderReport({ machine: 'm', measurements: [rows[1] as Measurement] });
    expect(cellsOf(text.split('\n')[4]).slice(7)).toEqual([
      'no raw fetch figure',
      'ratio ≤ 1.05: no baseline',
    ]);
  });

  it('escapes pipes inside cells', () => {
    const text = renderReport({
      machine: 'm',
      measurements: [{ section: 's', metric: 'a|b', subject: 'x', unit: 'u', samples: [1] }],
    });
    expect(cellsOf(text.split('\n')[4])[1]).toBe('a\\|b');
  });
});

describe('row order', () => {
  it('keeps the rows of one metric together, in order of first appearance', () => {
    const m = (metric: string, subject: string): Measurement => ({
      section: 's',
      metric,
      subject,
      unit: 'u',
      samples: [1],
    });
    const text = renderReport({
      machine: 'm',
      measurements: [m('a', 'x'), m('b', 'x'), m('a', 'y'), m('b', 'y')],
    });
    const subjects = text
      .split('\n')
      .slice(4)
      .filter((line) => line.startsWith('| s'))
      .map((line) => cellsOf(line).slice(1, 3).join(' '));
    expect(subjects).toEqual(['a x', 'a y', 'b x', 'b y']);
  });
});

describe('ratios', () => {
  it('gives no ratio against a baseline at or below zero', () => {
    const text = renderReport({
      machine: 'm',
      measurements: [
        { section: 's', metric: 'growth', subject: 'base', unit: 'MiB', samples: [-4] },
        { section: 's', metric: 'growth', subject: 'ours', unit: 'MiB', samples: [3], baseline: 'base' },
      ],
    });
    expect(cellsOf(text.split('\n')[5])).toEqual([
      's',
      'growth',
      'ours',
      '3.00 MiB',
      '3.00',
      '3.00',
      '',
      'n/a',
      '',
    ]);
  });
});
