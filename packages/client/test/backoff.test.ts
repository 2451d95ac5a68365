import { backoffDelay, retryAfterMs } from '@dataworkz/client';
import { describe, expect, it } from 'vitest';

describe('backoffDelay', () => {
  it('doubles from 0.5 s and caps at 8 s without jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((retry) => backoffDelay(retry, {}, 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it('takes off at most 25 % as jitter', () => {
    expect(backoffDelay(0, {}, 0.999999)).toBeCloseTo(375, 0);
    expect(backoffDelay(4, {}, 0.5)).toBe(7000);
    for (let i = 0; i < 1000; i++) {
      const delay = backoffDelay(2, {});
      expect(delay).toBeGreaterThan(1500);
      expect(delay).toBeLessThanOrEqual(2000);
    }
  });

  it('honours custom bounds', () => {
    expect(backoffDelay(3, { initialDelayMs: 1, maxDelayMs: 5 }, 0)).toBe(5);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-03-14T09:21:00Z');

  it('reads retry-after-ms first', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '5' }), now)).toBe(250);
  });

  it('reads Retry-After in seconds', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0' }), now)).toBe(0);
  });

  it('reads Retry-After as an HTTP date', () => {
    const headers = new Headers({ 'retry-after': 'Sat, 14 Mar 2026 09:21:04 GMT' });
    expect(retryAfterMs(headers, now)).toBe(4000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sat, 14 Mar 2026 09:20:58 GMT' }), now)).toBe(0);
  });

  it('ignores values outside 0..60 s and garbage', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '61' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '-1' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(
      retryAfterMs(new Headers({ 'retry-after': 'Sat, 14 Mar 2026 10:00:00 GMT' }), now),
    ).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('falls back to Retry-After when retry-after-ms is not sane', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '90000', 'retry-after': '2' }), now)).toBe(2000);
  });
});
