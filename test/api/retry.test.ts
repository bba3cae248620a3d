import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRateLimitReset, parseRetryAfter } from '../../src/api/retry.js';

describe('backoffDelay', () => {
  const settings = { baseMs: 200, capMs: 10_000 };

  it('grows exponentially from the base, with full jitter', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, settings, () => 0.999999))).toEqual([199, 399, 799, 1599]);
    expect(backoffDelay(3, settings, () => 0)).toBe(0);
    expect(backoffDelay(2, settings, () => 0.5)).toBe(200);
  });

  it('never exceeds the cap', () => {
    expect(backoffDelay(20, settings, () => 0.999999)).toBe(9999);
    for (let n = 1; n < 40; n++) expect(backoffDelay(n, settings)).toBeLessThanOrEqual(10_000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T17:45:00.000Z');

  it('reads delta seconds', () => {
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 30 ', now)).toBe(30_000);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 17:45:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 17:44:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('parseRateLimitReset', () => {
  const now = Date.parse('2026-11-21T17:45:00.250Z');

  it('reads epoch seconds as the time left', () => {
    expect(parseRateLimitReset(String(Math.ceil(now / 1000)), now)).toBe(750);
    expect(parseRateLimitReset(String(Math.floor(now / 1000) - 10), now)).toBe(0);
  });

  it('reads a small number as seconds from now', () => {
    expect(parseRateLimitReset('2', now)).toBe(2000);
  });

  it('ignores garbage', () => {
    expect(parseRateLimitReset('x', now)).toBeUndefined();
    expect(parseRateLimitReset(undefined, now)).toBeUndefined();
  });
});
