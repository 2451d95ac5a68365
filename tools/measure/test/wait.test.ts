import { until } from '@dataworkz/measure';
import { describe, expect, it } from 'vitest';

describe('until', () => {
  it('resolves once the condition holds', async () => {
    let polls = 0;
    await until(() => ++polls === 3, 'the third poll');
    expect(polls).toBe(3);
  });

  it('rejects, naming what it waited for, when the condition never holds within the bound', async () => {
    await expect(until(() => false, 'a thing that never happens', 30)).rejects.toThrow(
      'a thing that never happens: not so after 30 ms',
    );
  });
});
