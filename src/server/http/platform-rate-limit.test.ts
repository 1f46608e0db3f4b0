import { describe, expect, it } from 'vitest';
import {
  checkRateLimitConfig,
  PLATFORM_RATE_LIMITED,
  PlatformRateLimiter,
  platformRateLimited,
} from './platform-rate-limit.ts';

/** A limiter on a clock the test moves by hand. */
function limiterAt(start = 1_000_000, maxKeys?: number) {
  let now = start;
  const limiter = new PlatformRateLimiter({ now: () => now, ...(maxKeys ? { maxKeys } : {}) });
  return { limiter, at: (seconds: number) => (now = start + seconds * 1000) };
}

const rule = { windowLimit: 5, windowSize: 60 };

describe('PlatformRateLimiter', () => {
  it('admits windowLimit requests in the window, then refuses with the seconds to wait, not counting refusals', () => {
    const { limiter, at } = limiterAt();
    at(0);
    expect(Array.from({ length: 5 }, () => limiter.hit('a', rule))).toEqual([0, 0, 0, 0, 0]);
    expect(limiter.hit('a', rule)).toBe(60);
    at(59.5);
    expect(limiter.hit('a', rule)).toBe(1);
    // The refusals were not counted: once the five leave, five more get in.
    at(60);
    expect(Array.from({ length: 5 }, () => limiter.hit('a', rule))).toEqual([0, 0, 0, 0, 0]);
    expect(limiter.hit('a', rule)).toBe(60);
  });

  it('slides: each request leaves the window windowSize seconds after it came, not at a fixed boundary', () => {
    const { limiter, at } = limiterAt();
    at(0);
    for (let index = 0; index < 3; index++) expect(limiter.hit('a', rule)).toBe(0);
    at(30);
    for (let index = 0; index < 2; index++) expect(limiter.hit('a', rule)).toBe(0);
    at(59.999);
    expect(limiter.hit('a', rule)).toBe(1); // the first three leave at 60 s
    at(60);
    for (let index = 0; index < 3; index++) expect(limiter.hit('a', rule)).toBe(0);
    expect(limiter.hit('a', rule)).toBe(30); // the two of 30 s leave at 90 s
    at(90);
    expect(limiter.hit('a', rule)).toBe(0);
    expect(limiter.hit('a', rule)).toBe(0);
    expect(limiter.hit('a', rule)).toBe(30); // the three of 60 s leave at 120 s
  });

  it('counts each key apart', () => {
    const { limiter } = limiterAt();
    for (let index = 0; index < 5; index++) limiter.hit('a', rule);
    expect(limiter.hit('a', rule)).toBeGreaterThan(0);
    expect(limiter.hit('b', rule)).toBe(0);
  });

  it('bounds its memory: keys whose window is over are dropped, and past maxKeys the least recently seen goes', () => {
    const { limiter, at } = limiterAt(1_000_000, 3);
    at(0);
    for (const key of ['a', 'b', 'c']) limiter.hit(key, rule);
    expect(limiter.size).toBe(3);
    at(61);
    for (let index = 0; index < 5; index++) limiter.hit('d', rule);
    expect(limiter.hit('d', rule)).toBeGreaterThan(0);
    expect(limiter.size).toBe(1);
    for (const key of ['e', 'f', 'g']) limiter.hit(key, rule);
    expect(limiter.size).toBe(3);
    // 'd' was the least recently seen when 'g' came: forgotten, it starts again.
    expect(limiter.hit('d', rule)).toBe(0);
    expect(limiter.size).toBe(3);
  });
});

describe('platformRateLimited', () => {
  const perIp = { ...rule, aggregateBy: ['ip', 'domain'] as ('ip' | 'domain')[] };

  it('answers a JSON 429 in Spanish with Retry-After, per function and address', async () => {
    const { limiter } = limiterAt();
    for (let index = 0; index < 5; index++) expect(platformRateLimited(limiter, 'fn', perIp, '203.0.113.1')).toBeNull();
    const refused = platformRateLimited(limiter, 'fn', perIp, '203.0.113.1');
    expect(refused?.status).toBe(429);
    expect(refused?.headers.get('retry-after')).toBe('60');
    expect(refused?.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused?.json()).toEqual({ error: PLATFORM_RATE_LIMITED });
    expect(platformRateLimited(limiter, 'fn', perIp, '203.0.113.2')).toBeNull();
    expect(platformRateLimited(limiter, 'other', perIp, '203.0.113.1')).toBeNull();
    expect(platformRateLimited(limiter, 'fn', undefined, '203.0.113.1')).toBeNull();
  });

  it("counts the whole site as one when aggregateBy does not name 'ip' (Netlify's default is the domain)", () => {
    const { limiter } = limiterAt();
    for (let index = 0; index < 5; index++) platformRateLimited(limiter, 'fn', rule, `203.0.113.${index}`);
    expect(platformRateLimited(limiter, 'fn', rule, '198.51.100.7')?.status).toBe(429);
  });
});

describe('checkRateLimitConfig', () => {
  it('refuses what the local server cannot apply, naming the function', () => {
    expect(checkRateLimitConfig('fn', undefined)).toBeUndefined();
    expect(checkRateLimitConfig('fn', rule)).toBe(rule);
    expect(() => checkRateLimitConfig('fn', { ...rule, action: 'rewrite', to: '/limite' })).toThrow(/fn\.ts/);
    expect(() => checkRateLimitConfig('fn', { windowLimit: 0, windowSize: 60 })).toThrow(/fn\.ts/);
  });
});
