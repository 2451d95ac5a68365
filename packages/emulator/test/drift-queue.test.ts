import { describe, expect, it, vi } from 'vitest';
import type { CassetteEntry } from '../src/cassette/har.js';
import { DriftQueue } from '../src/node/record/drift-queue.js';

const entry = {} as CassetteEntry;

function counting() {
  const checked: string[] = [];
  return {
    checked,
    checker: {
      check: (_: CassetteEntry, path: string) => {
        if (path === '/api/broken') throw new Error('no such schema');
        checked.push(path);
      },
      report: () => ({ responses: checked.length, operations: {} }),
    },
  };
}

describe('the drift queue', () => {
  it('runs every queued check before it gives a report', () => {
    const { checked, checker } = counting();
    const queue = new DriftQueue(checker, () => {});
    queue.add(entry, '/api/a');
    queue.add(entry, '/api/b');
    expect(checked).toEqual([]);
    expect(queue.report().responses).toBe(2);
    expect(checked).toEqual(['/api/a', '/api/b']);
    expect(queue.report().responses).toBe(2);
  });

  it('runs them on the next turn of the loop once a request is sent on, and after a pause anyway', async () => {
    // The pause on a fake clock, so that "not yet" and "now" are each a fact, however slow the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { checked, checker } = counting();
      const queue = new DriftQueue(checker, () => {});
      queue.add(entry, '/api/a');
      queue.waiting();
      expect(checked).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(checked).toEqual(['/api/a']);
      queue.add(entry, '/api/b');
      vi.advanceTimersByTime(9);
      expect(checked).toEqual(['/api/a']);
      vi.advanceTimersByTime(1);
      expect(checked).toEqual(['/api/a', '/api/b']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands a failed check to onError and goes on with the others', () => {
    const { checked, checker } = counting();
    const errors: unknown[] = [];
    const queue = new DriftQueue(checker, (error) => errors.push(error));
    queue.add(entry, '/api/broken');
    queue.add(entry, '/api/a');
    queue.report();
    expect(checked).toEqual(['/api/a']);
    expect(errors).toHaveLength(1);
  });
});
