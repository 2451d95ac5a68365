import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../src/http/rate-limit.js';
import { createEmulator, type InProcessEmulator, startEmulator } from '../src/index.js';

const origin = 'https://dw.example';

describe('the rate limit (limits.rateLimit)', () => {
  let emu: InProcessEmulator | undefined;
  afterEach(() => emu?.close());

  const list = (key: string) =>
    emu?.fetch(`${origin}/api/qna/v1/systems`, {
      headers: { authorization: `SSWS ${key}` },
    }) as Promise<Response>;

  it('lets a burst through, then answers 429 with Retry-After and the spec’s Error body', async () => {
    emu = createEmulator({ apiKeys: ['key-a', 'key-b'], limits: { rateLimit: 2, rateLimitBurst: 3 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await list('key-a')).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    const refused = await list('key-a');
    expect(refused.status).toBe(429);
    const waitMs = Number(refused.headers.get('retry-after-ms'));
    expect(waitMs).toBeGreaterThan(0);
    expect(waitMs).toBeLessThanOrEqual(500);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      status: 429,
      error: 'Too Many Requests',
      code: 'RATE_LIMITED',
    });
    // Each credential has its own bucket.
    expect((await list('key-b')).status).toBe(200);
  });

  it('answers again once the advertised time has passed', async () => {
    emu = createEmulator({ apiKeys: ['key-a'], limits: { rateLimit: 20, rateLimitBurst: 1 } });
    expect((await list('key-a')).status).toBe(200);
    const refused = await list('key-a');
    expect(refused.status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, Number(refused.headers.get('retry-after-ms')) + 5));
    expect((await list('key-a')).status).toBe(200);
  });

  it('has no limit by default, and takes --rate-limit from the command line', async () => {
    emu = createEmulator({ apiKeys: ['key-a'] });
    const statuses = await Promise.all(Array.from({ length: 50 }, () => list('key-a').then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    const { parseArguments } = await import('../src/node/cli/arguments.js');
    const parsed = parseArguments(['--rate-limit', '50', '--rate-limit-burst', '10'], () => undefined);
    expect(parsed).toMatchObject({ options: { limits: { rateLimit: 50, rateLimitBurst: 10 } } });
    expect(() => createEmulator({ limits: { rateLimit: 0 } })).toThrow(/rateLimit/);
  });

  it('refills at the rate: a clock that moves 100 ms gives back rate / 10 tokens', () => {
    let now = 0;
    const limiter = new RateLimiter(50, 5, () => now);
    for (let i = 0; i < 5; i++) limiter.take('k');
    expect(() => limiter.take('k')).toThrow(/retry in 20 ms/);
    now = 100;
    for (let i = 0; i < 5; i++) limiter.take('k');
    expect(() => limiter.take('k')).toThrow(/Rate limit/);
    // Never more than the burst, however long the wait.
    now = 60_000;
    for (let i = 0; i < 5; i++) limiter.take('k');
    expect(() => limiter.take('k')).toThrow(/Rate limit/);
  });

  it('applies over HTTP too', async () => {
    const server = await startEmulator({ port: 0, apiKeys: ['key-a'], limits: { rateLimit: 1 } });
    try {
      const headers = { authorization: 'SSWS key-a' };
      expect((await fetch(`${server.url}/api/agents/v1/`, { headers })).status).toBe(200);
      const refused = await fetch(`${server.url}/api/agents/v1/`, { headers });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
    } finally {
      await server.close();
    }
  });
});
