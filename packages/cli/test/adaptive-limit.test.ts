import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from '../src/batch/adaptive-limit.js';

describe('AdaptiveLimit (AIMD)', () => {
  it('halves on push-back at most once per window, pauses for the wait asked, and climbs back one per window', () => {
    let now = 0;
    const limit = new AdaptiveLimit(32, 1000, () => now);
    expect(limit.value).toBe(32);
    limit.pushedBack(500);
    limit.pushedBack(800); // the same window: no second halving, but the longer wait counts
    expect(limit.value).toBe(16);
    expect(limit.pauseMs()).toBe(800);
    now = 1000;
    expect(limit.pauseMs()).toBe(0);
    limit.pushedBack(100);
    expect(limit.value).toBe(8);
    for (let window = 1; window <= 30; window++) {
      now = 1000 + window * 1000;
      limit.succeeded();
      limit.succeeded();
    }
    // One step per window, never past the concurrency asked for.
    expect(limit.value).toBe(32);
    for (let i = 0; i < 10; i++) {
      now += 1000;
      limit.pushedBack(0);
    }
    expect(limit.value).toBe(1);
  });
});
